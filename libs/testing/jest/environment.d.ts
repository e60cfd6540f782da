import { TestEnvironment } from 'jest-environment-node';
export default class ScaledTimeoutsEnvironment extends TestEnvironment {}
