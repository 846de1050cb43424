/**
 * The contact form's ALTCHA proof of work (spam defence), shared by the widget and the server:
 * the field its solution is posted in (the widget's default name) and the key-derivation
 * algorithm of the challenges (PBKDF2 through Web Crypto in the browser: no WebAssembly, no eval).
 */
export const proofField = 'altcha';
export const proofAlgorithm = 'PBKDF2/SHA-256';
