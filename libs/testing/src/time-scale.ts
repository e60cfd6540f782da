// The one rule lives beside jest's setup (plain JavaScript, read by jest's config too).
export { scaled, timeScale } from '../../../scripts/jest/time-scale.js';
