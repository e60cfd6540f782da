// The one rule lives beside jest's environment and reporter (plain JavaScript, read by jest's config too).
export { expectOwnLoad, scaled, timeScale } from '../jest/time-scale.js';
