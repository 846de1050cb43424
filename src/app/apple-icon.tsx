import { ImageResponse } from 'next/og';
import { LogoMark } from '@/components/layout/logo-mark';

/** Apple touch icon: 180 × 180 px, the size iOS uses on the home screen. */
export const size = { width: 180, height: 180 };
export const contentType = 'image/png';

/** The logo mark, full-bleed on its green (iOS rounds the corners itself and shows no transparency). */
export default function AppleIcon() {
  return new ImageResponse(
    <div style={{ width: '100%', height: '100%', display: 'flex', background: '#15803d' }}>
      <LogoMark size={180} />
    </div>,
    size,
  );
}
