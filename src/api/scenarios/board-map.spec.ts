import { editedKernelEntry, redrawnKernelEntry } from '../../../test/support/edited-scenario';
import { onMap, publicMap } from './board-map';

const kernelTestEntry = () => editedKernelEntry(() => undefined);

describe('the public board of a scenario version', () => {
  it('is built once per version: every game of it (each with its own copy of the data, read from its log) shares it', () => {
    const entry = kernelTestEntry();
    const fromLog = JSON.parse(JSON.stringify(entry.scenario)) as unknown;
    const board = publicMap({ version: entry.version, data: entry.scenario });
    expect(publicMap({ version: entry.version, data: fromLog })).toBe(board);
    expect(board?.hexes.find((h) => h.hex === '0701')?.terrain).toBe('hills');
  });

  it('is the one of each version, and checks a hex against that version\'s map', () => {
    const before = kernelTestEntry();
    const after = redrawnKernelEntry();
    expect(after.version).not.toBe(before.version);
    expect(publicMap({ version: after.version, data: after.scenario })?.hexes.find((h) => h.hex === '0701')?.terrain).toBe('jungle');
    expect([onMap({ version: before.version, data: before.scenario }, '1201'), onMap({ version: before.version, data: before.scenario }, '1109')]).toEqual([true, false]);
    expect([onMap({ version: after.version, data: after.scenario }, '1201'), onMap({ version: after.version, data: after.scenario }, '1109')]).toEqual([false, true]);
  });
});
