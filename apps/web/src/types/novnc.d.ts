/// <reference types="novnc__novnc" />

// noVNC 1.7 publishes its client as the package's main module (core/rfb.js); the
// DefinitelyTyped description names it by its older path.
declare module '@novnc/novnc' {
  import RFB from '@novnc/novnc/lib/rfb';
  export default RFB;
}
