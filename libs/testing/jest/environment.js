// Jest's node environment, with the timeout a test or hook names (`it(name, fn, 90_000)`) stretched
// by the time scale like the default testTimeout: a loaded machine makes a test slower, not red.
// Done on jest-circus's events so it holds however a file gets `it` (global or `@jest/globals`).
import { TestEnvironment } from 'jest-environment-node';
import { scaled } from './time-scale.js';

export default class ScaledTimeoutsEnvironment extends TestEnvironment {
  handleTestEvent(event, state) {
    if ((event.name === 'add_test' || event.name === 'add_hook') && typeof event.timeout === 'number') {
      const added = event.name === 'add_test' ? state.currentDescribeBlock.children.at(-1) : state.currentDescribeBlock.hooks.at(-1);
      if (added && added.timeout === event.timeout) added.timeout = scaled(event.timeout);
    }
    return super.handleTestEvent?.(event, state);
  }
}
