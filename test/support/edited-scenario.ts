import { catalogEntry } from '../../src/games/catalog-builder';
import type { CatalogEntry } from '../../src/games/game-catalog';
import { parseScenario } from '../../src/rules/model/parse-scenario';
import { testScenarioFiles } from '../../src/rules/testing/scenario-files';
import { testSystem } from '../../src/rules/testing/test-system';

type Files = Record<string, Record<string, unknown>>;

/** The kernel test scenario's entry once its files were edited, as a folder changed between two runs of the server. */
export function editedKernelEntry(edit: (files: Files) => void): CatalogEntry {
  const files = testScenarioFiles() as Files;
  edit(files);
  return catalogEntry(parseScenario(files), testSystem);
}

/**
 * The test map redrawn and the scenario renamed: hills become jungle, 1201 leaves the map and
 * 1109 joins it. A game created before must go on showing, and checking hexes against, its own.
 */
export const redrawnKernelEntry = () =>
  editedKernelEntry((files) => {
    const map = files['map.json']!;
    const rows = [...(map['terrainRows'] as string[])];
    rows[0] = '~~-b..jjj..x';
    rows[8] = '~~--........';
    map['terrainRows'] = rows;
    files['scenario.json']!['name'] = 'Kernel test island, redrawn';
  });

/** The kernel test scenario moved to another id: no entry for the old id remains, its system does. */
export const movedKernelEntry = () => editedKernelEntry((files) => void (files['scenario.json']!['id'] = 'kernel-test-moved'));
