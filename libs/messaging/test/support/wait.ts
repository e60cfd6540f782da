export { waitFor } from '@school/testing';

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
