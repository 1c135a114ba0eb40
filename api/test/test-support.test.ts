import { describe, expect, it } from '@jest/globals';
import { closeAll } from './support/testApp';

describe('suite teardown (closeAll)', () => {
  it('skips what set-up never created and closes every other resource even when one throws', async () => {
    const closed: string[] = [];
    const server = { close: async () => void closed.push('server') };
    const broken = {
      close: async () => {
        throw new Error('database went away');
      },
    };
    const sandbox = { close: async () => void closed.push('sandbox') };

    await expect(closeAll(server, undefined, broken, sandbox)).rejects.toThrow('teardown: 1 resource(s) failed to close');
    expect(closed.sort()).toEqual(['sandbox', 'server']);
  });

  it('resolves when set-up failed before creating anything', async () => {
    await expect(closeAll(undefined, undefined)).resolves.toBeUndefined();
  });
});
