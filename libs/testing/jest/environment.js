// Jest's node environment, with every timeout stretched by the time scale: the default testTimeout
// (or jest.setTimeout's) as a file starts, and the one a test or hook names (`it(name, fn, 90_000)`):
// a loaded machine makes a test slower, not red. Done on jest-circus's events so it holds however a
// file gets `it` (global or `@jest/globals`). The configs keep the unstretched default: jest keys its
// transform cache on the whole config, so a scaled one made every file compile again whenever the
// machine's load, and so the scale, differed from the last run.
import { TestEnvironment } from 'jest-environment-node';
import { scaled } from './time-scale.js';

export default class ScaledTimeoutsEnvironment extends TestEnvironment {
  handleTestEvent(event, state) {
    if (event.name === 'run_start') state.testTimeout = scaled(state.testTimeout);
    if ((event.name === 'add_test' || event.name === 'add_hook') && typeof event.timeout === 'number') {
      const added = event.name === 'add_test' ? state.currentDescribeBlock.children.at(-1) : state.currentDescribeBlock.hooks.at(-1);
      if (added && added.timeout === event.timeout) added.timeout = scaled(event.timeout);
    }
    return super.handleTestEvent?.(event, state);
  }
}
