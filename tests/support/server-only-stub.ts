// Stands in for the 'server-only' package under Vitest, which runs server code outside Next.js.
export {};
