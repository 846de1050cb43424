import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './next-server';

/** A `COPY --from=build <source> <destination>` line of the Dockerfile's runtime stage. */
export type DockerCopy = { source: string; destination: string };

/**
 * The files the Dockerfile copies from its build stage into the image, read from the Dockerfile
 * itself so the test and the recipe cannot drift apart. Sources are under the build stage's
 * WORKDIR (`/src`, the repository), destinations under the runtime WORKDIR (`/app`).
 * @throws when the Dockerfile has no such line or uses another layout.
 */
export function dockerCopies(dockerfile = path.join(repoRoot, 'Dockerfile')): DockerCopy[] {
  const copies = [
    ...readFileSync(dockerfile, 'utf8').matchAll(/^COPY --from=build (?:--\S+ )*(\S+) (\S+)$/gm),
  ].map(([, source = '', destination = '']) => ({ source, destination }));
  if (copies.length === 0) throw new Error('The Dockerfile copies nothing from its build stage');
  for (const { source } of copies)
    if (!source.startsWith('/src/'))
      throw new Error(`Unexpected COPY source ${source} (build WORKDIR is /src)`);
  return copies;
}

/**
 * The script the image runs (`CMD ["node", "<script>"]` of the Dockerfile), relative to `/app`.
 * @throws when the Dockerfile's command has another shape.
 */
export function dockerEntry(dockerfile = path.join(repoRoot, 'Dockerfile')): string {
  const command = /^CMD \["node", "([^"]+)"\]$/m.exec(readFileSync(dockerfile, 'utf8'));
  if (!command?.[1]) throw new Error('The Dockerfile has no CMD ["node", "<script>"]');
  return command[1];
}

/**
 * Copies what the Dockerfile's runtime stage copies into the empty directory `appDir` (standing for
 * `/app`), then makes it read-only for everyone (`chmod -R a-w`), as the image's root-owned files
 * are for its non-root user.
 */
export function stageDockerApp(appDir: string): DockerCopy[] {
  const copies = dockerCopies();
  for (const { source, destination } of copies)
    cpSync(path.join(repoRoot, source.slice('/src/'.length)), path.resolve(appDir, destination), {
      recursive: true,
    });
  execFileSync('chmod', ['-R', 'a-w', appDir]);
  return copies;
}
