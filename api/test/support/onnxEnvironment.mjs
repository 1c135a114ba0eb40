/**
 * Jest's node environment with the process's own Float32Array: onnxruntime-node hands back output
 * tensors made outside Jest's sandbox, and its `instanceof Float32Array` check fails on the sandbox's
 * copy of the class. The api project's environment (jest.config.mjs): any suite may run the pipeline.
 */
import { TestEnvironment } from 'jest-environment-node';

export default class OnnxEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.Float32Array = Float32Array;
  }
}
