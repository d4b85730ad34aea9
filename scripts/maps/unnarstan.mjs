#!/usr/bin/env node
// Generator for the map of Unnarstan, the island of the Gators! first scenario (GT-3.1-GT-3.3,
// Q-GT-05: the map is only pictured in the source, so it is supplied as scenario data).
//
// Writes src/scenarios/gators-unnarstan/map.json deterministically, checks the result, and
// prints an ASCII rendering.
//
//   node scripts/maps/unnarstan.mjs           write map.json, print the rendering and a summary
//   node scripts/maps/unnarstan.mjs --check   do not write; fail if map.json differs from the output
//   node scripts/maps/unnarstan.mjs --ascii   print only the rendering and its key (for the README)
//
// Plain Node ESM, no dependencies. Any failed check throws and exits non-zero.
//
// GEOMETRY
// Hexes are flat-topped. Internally we use axial coordinates (q, r) with neighbours
// (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1) (0,+1). Labels are CCRR, 1-based, odd-q offset
// (0-based odd columns shoved down half a hex): for 0-based col c and row R,
// q = c, r = R - (c - (c & 1)) / 2.
//
// A geomorphic tile is a radius-3 hexagon of 37 hexes (the printed tiles' edge half-hexes are
// counted as full hexes). Such hexagons tile the plane with translations U = (7,-3) and
// V = (3,4) (W = V - U = (-4,7)); the six neighbouring tile centres are +-U, +-V, +-W, which we
// call the tile sides E (U), SE (V), SW (W), W (-U), NW (-V) and NE (-W). The tiles are laid out
// in five rows of 4, 5, 6, 5 and 4 (24 tiles): the island is the 3-4-3 block in the middle, the
// other 14 are all-sea tiles.
//
// A tile kind is drawn in its canonical orientation as 13 text lines: line L is the half-row
// y = L - 6 (y = 2r + q), character 2(q + 3) of the line is the hex (q, (y - q) / 2). This is
// the same picture the --ascii rendering uses. Rotation k turns a tile k * 60 degrees clockwise:
// (q, r) -> (-r, q + r), applied k times; it maps the side E to SE, SE to SW, and so on.
//
// Each side of a tile has one "port" hex where roads cross from tile to tile: (3,-1) on the E
// side and its rotations. The E port of one tile is adjacent to the W port of its neighbour, and
// likewise for every side, whatever the rotation, so roads that end at ports join up. The
// generator adds the one-edge link between two facing ports when both carry a road.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = resolve(HERE, '../../src/scenarios/gators-unnarstan/map.json');

// ---------------------------------------------------------------------------------------------
// Axial helpers
// ---------------------------------------------------------------------------------------------
const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1]];
const mul = (a, k) => [a[0] * k, a[1] * k];
const key = (h) => `${h[0]},${h[1]}`;
const unkey = (k) => k.split(',').map(Number);
const dist = (a, b) => {
  const dq = a[0] - b[0];
  const dr = a[1] - b[1];
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
};
const neighbours = (h) => DIRS.map((d) => add(h, d));
const rot1 = ([q, r]) => [-r, q + r];
const rotate = (h, k) => {
  let x = h;
  for (let i = 0; i < ((k % 6) + 6) % 6; i++) x = rot1(x);
  return x;
};

const U = [7, -3];
const V = [3, 4];
const W = sub(V, U); // (-4, 7)
// Side names in clockwise order; SIDE_VEC[s] is the offset to the neighbouring tile centre.
const SIDES = ['E', 'SE', 'SW', 'W', 'NW', 'NE'];
const SIDE_VEC = { E: U, SE: V, SW: W, W: mul(U, -1), NW: mul(V, -1), NE: mul(W, -1) };
const PORT_E = [3, -1];
const port = (side) => rotate(PORT_E, SIDES.indexOf(side));
const turnSide = (side, k) => SIDES[(SIDES.indexOf(side) + k + 600) % 6];

const TILE_HEXES = [];
for (let q = -3; q <= 3; q++) {
  for (let r = -3; r <= 3; r++) if (dist([q, r], [0, 0]) <= 3) TILE_HEXES.push([q, r]);
}

// ---------------------------------------------------------------------------------------------
// Terrain
// ---------------------------------------------------------------------------------------------
// Picture letters (tile pictures) and map.json characters are the same.
const TERRAIN = { D: 'deep', S: 'shallow', B: 'beach', C: 'clear', J: 'jungle', H: 'hills', W: 'swamp' };
const OFF_MAP = 'X';
const WATER = new Set(['deep', 'shallow']);
const isWater = (t) => WATER.has(t);
const isLand = (t) => t !== undefined && !isWater(t);

// ---------------------------------------------------------------------------------------------
// Tile kinds (canonical orientation). Roads and rivers are paths of local hexes "q,r q,r ...".
// Template (ring numbers; ports marked P):
//
//         3                NE port (2,-3)   NW port (-1,-2)
//       P   3              E port  (3,-1)   W port  (-3,1)
//     3   2   P            SE port (1,2)    SW port (-2,3)
//   3   2   2   3
//     2   1   2            The canonical coastal orientation has the sea on the W, NW and
//   P   1   1   3          NE sides (the island's north-west corner tile); the two-coast kind
//     2   0   2            has the sea on the NW and NE sides (the north-middle tile).
//   3   1   1   P
//     2   1   2
//   3   2   2   3
//     P   2   3
//       3   P
//         3
// ---------------------------------------------------------------------------------------------
const KINDS = {
  // Jungle coast: long beaches on all three sea sides, a river through the jungle to the west
  // shore, a coastal road along the landward sides. Used three times.
  A: {
    name: 'Jungle coast',
    seaSides: ['W', 'NW', 'NE'],
    picture: [
      '      S      ',
      '    S   S    ',
      '  S   B   S  ',
      'S   B   B   B',
      '  B   J   C  ',
      'S   J   J   C',
      '  W   J   C  ',
      'S   J   J   C',
      '  B   C   J  ',
      'S   C   C   J',
      '  C   C   H  ',
      '    C   C    ',
      '      J      ',
    ],
    roads: ['1,2 0,2 -1,2 -2,3'],
    rivers: ['0,3 0,2 0,1 -1,1 -2,1'],
  },
  // Central upland: an interior tile (land on all sides), roads from all six ports to a central
  // crossroads, hills to the north, a jungle belt to the west and south-west. Used twice.
  B: {
    name: 'Central upland',
    seaSides: [],
    picture: [
      '      H      ',
      '    C   H    ',
      '  C   H   H  ',
      'J   C   C   H',
      '  C   C   H  ',
      'C   C   C   J',
      '  J   C   C  ',
      'J   C   C   C',
      '  J   C   J  ',
      'W   J   C   J',
      '  C   J   C  ',
      '    W   C    ',
      '      J      ',
    ],
    roads: [
      '3,-1 2,-1 1,-1 0,0',
      '1,2 1,1 1,0 0,0',
      '-2,3 -1,2 0,1 0,0',
      '-3,1 -2,1 -1,1 0,0',
      '-1,-2 -1,-1 -1,0 0,0',
      '2,-3 1,-2 0,-1 0,0',
    ],
    rivers: [],
  },
  // Bay coast: a shallow bay with beaches on both sides and a harbour town at its head, a
  // river with a swampy mouth in the east of the bay, hills inland. Used twice.
  C: {
    name: 'Bay coast',
    seaSides: ['NW', 'NE'],
    picture: [
      '      S      ',
      '    S   S    ',
      '  S   S   S  ',
      'S   B   B   B',
      '  B   C   W  ',
      'C   C   C   C',
      '  J   C   C  ',
      'J   C   C   C',
      '  J   J   J  ',
      'H   J   H   J',
      '  C   H   J  ',
      '    H   C    ',
      '      H      ',
    ],
    roads: ['3,-1 2,-1 1,-1 0,0', '1,2 1,1 1,0 0,0', '-2,3 -2,2 -1,1 0,0'],
    rivers: ['2,1 2,0 2,-1 2,-2'],
  },
  // Islet: a small island in the middle of the tile, with a deep channel around its landward
  // side (ring 2) and shallows along the main island (ring 3). The road leaves the islet by a
  // two-hex bridge overlay to the SE port. Used once.
  D: {
    name: 'Islet',
    seaSides: ['W', 'NW', 'NE'],
    picture: [
      '      S      ',
      '    S   S    ',
      '  S   B   S  ',
      'S   H   B   D',
      '  B   C   D  ',
      'S   H   C   S',
      '  J   C   D  ',
      'S   C   J   S',
      '  D   C   D  ',
      'D   D   D   S',
      '  S   D   S  ',
      '    S   S    ',
      '      S      ',
    ],
    roads: ['1,2 1,1 0,1'],
    rivers: [],
  },
  // Mangrove delta: swampy west coast, a river winding to the sea past a small market town.
  // Used once.
  E: {
    name: 'Mangrove delta',
    seaSides: ['W', 'NW', 'NE'],
    picture: [
      '      S      ',
      '    S   S    ',
      '  S   W   S  ',
      'S   W   B   B',
      '  S   W   C  ',
      'S   W   C   J',
      '  W   C   C  ',
      'S   C   C   C',
      '  W   W   J  ',
      'S   W   C   J',
      '  W   W   J  ',
      '    J   C    ',
      '      J      ',
    ],
    roads: ['3,-1 2,-1 1,-1 0,0', '1,2 1,1 1,0 0,0'],
    rivers: ['2,1 1,1 0,1 -1,1 -2,1'],
  },
  // Highland coast: cliffs (deep water close in) and hills, a plateau airfield, a hill village
  // at the road junction, two small beaches. Used once.
  F: {
    name: 'Highland coast',
    seaSides: ['W', 'NW', 'NE'],
    picture: [
      '      D      ',
      '    S   D    ',
      '  S   H   S  ',
      'S   H   H   B',
      '  B   C   H  ',
      'S   H   H   J',
      '  H   H   J  ',
      'S   C   C   C',
      '  B   C   J  ',
      'S   H   J   J',
      '  C   C   H  ',
      '    H   C    ',
      '      H      ',
    ],
    roads: ['3,-1 2,0 1,0 0,1', '1,2 0,2 0,1', '-2,3 -1,2 0,1'],
    rivers: [],
  },
};

function parsePicture(kindId, lines) {
  if (lines.length !== 13) throw new Error(`kind ${kindId}: picture must have 13 lines`);
  const terrain = new Map();
  lines.forEach((line, L) => {
    const y = L - 6;
    for (let x = 0; x < line.length; x++) {
      const ch = line[x];
      if (ch === ' ') continue;
      if (x % 2) throw new Error(`kind ${kindId}: odd x at line ${L}`);
      const q = x / 2 - 3;
      if ((y - q) % 2) throw new Error(`kind ${kindId}: no hex at line ${L} x ${x}`);
      const h = [q, (y - q) / 2];
      if (dist(h, [0, 0]) > 3) throw new Error(`kind ${kindId}: hex ${key(h)} outside tile`);
      if (!TERRAIN[ch]) throw new Error(`kind ${kindId}: unknown terrain '${ch}'`);
      terrain.set(key(h), TERRAIN[ch]);
    }
  });
  if (terrain.size !== 37) throw new Error(`kind ${kindId}: ${terrain.size} hexes, need 37`);
  return terrain;
}
const parsePath = (s) => s.trim().split(/\s+/).map((p) => p.split(',').map(Number));

// ---------------------------------------------------------------------------------------------
// Layout: five rows of tiles (4, 5, 6, 5, 4). Island tiles are given with their kind and
// rotation (60-degree clockwise steps); every other tile is an all-sea tile.
// ---------------------------------------------------------------------------------------------
const ROW_START = [[0, 0], W, mul(W, 2), add(mul(W, 2), V), add(mul(W, 2), mul(V, 2))];
const ROW_COUNT = [4, 5, 6, 5, 4];
const ISLAND = {
  '1,1': { id: 'nw', kind: 'A', rotation: 0 },
  '1,2': { id: 'n', kind: 'C', rotation: 0 },
  '1,3': { id: 'ne', kind: 'F', rotation: 1 },
  '2,1': { id: 'w', kind: 'E', rotation: 5 },
  '2,2': { id: 'cw', kind: 'B', rotation: 0 },
  '2,3': { id: 'ce', kind: 'B', rotation: 3 },
  '2,4': { id: 'e', kind: 'A', rotation: 2 },
  '3,1': { id: 'sw', kind: 'A', rotation: 4 },
  '3,2': { id: 's', kind: 'C', rotation: 3 },
  '3,3': { id: 'islet', kind: 'D', rotation: 3 },
};
const EXPECTED_KIND_COUNTS = { A: 3, B: 2, C: 2, D: 1, E: 1, F: 1 };

// ---------------------------------------------------------------------------------------------
// Overlays, given on a tile in the tile kind's canonical frame (they turn with the tile, as a
// printed overlay laid on a printed tile would).
// ---------------------------------------------------------------------------------------------
const CITIES = [
  { id: 'santa-unna', name: 'Santa Unna', capital: true, tile: 'cw', hexes: '0,0 1,-1 1,0 0,1 -1,1 -1,0 0,-1' },
  { id: 'puentealto', name: 'Puentealto', capital: false, tile: 'ce', hexes: '-1,-1 -1,-2 -2,0 -2,-1' },
  { id: 'puerto-norte', name: 'Puerto Norte', capital: false, tile: 'n', hexes: '0,0 0,-1 1,-1 -1,0' },
  { id: 'bahia-sur', name: 'Bahia Sur', capital: false, tile: 's', hexes: '0,0 0,-1 1,-1' },
  { id: 'los-manglares', name: 'Los Manglares', capital: false, tile: 'w', hexes: '0,0 1,-1 1,0' },
  { id: 'cerro-alto', name: 'Cerro Alto', capital: false, tile: 'ne', hexes: '0,1' },
  { id: 'isleta', name: 'Isleta', capital: false, tile: 'islet', hexes: '0,1' },
];
const AIRFIELDS = [
  { id: 'af-isleta', name: 'Isleta airfield', tile: 'islet', hexes: '0,-1' },
  { id: 'af-cerro', name: 'Cerro plateau airfield', tile: 'ne', hexes: '0,-1' },
  { id: 'af-llanos', name: 'Los Llanos airfield', tile: 'sw', hexes: '2,-1' },
];
// The islet bridge: the water hexes of the islet tile's road. Passage per GT-3.3 / the brief.
const ISLET_TILE = 'islet';

// ---------------------------------------------------------------------------------------------
// Build
// ---------------------------------------------------------------------------------------------
function build() {
  const kinds = {};
  for (const [id, k] of Object.entries(KINDS)) {
    kinds[id] = {
      ...k,
      terrain: parsePicture(id, k.picture),
      roads: k.roads.map(parsePath),
      rivers: k.rivers.map(parsePath),
    };
  }

  // Tiles
  const tiles = [];
  let seaNo = 0;
  ROW_START.forEach((start, row) => {
    for (let i = 0; i < ROW_COUNT[row]; i++) {
      const centre = add(start, mul(U, i));
      const isl = ISLAND[`${row},${i}`];
      if (isl) tiles.push({ ...isl, centre, row, i });
      else tiles.push({ id: `sea-${String(++seaNo).padStart(2, '0')}`, kind: 'sea', rotation: 0, centre, row, i });
    }
  });
  const tileById = new Map(tiles.map((t) => [t.id, t]));
  const toGlobal = (tile, local) => add(tile.centre, rotate(local, tile.rotation));

  // Terrain per axial hex; owner tile per hex.
  const terrain = new Map();
  const owner = new Map();
  for (const t of tiles) {
    for (const l of TILE_HEXES) {
      const g = toGlobal(t, l);
      const k = key(g);
      if (owner.has(k)) throw new Error(`CHECK tiling: hex ${k} covered by ${owner.get(k).id} and ${t.id}`);
      owner.set(k, t);
      terrain.set(k, t.kind === 'sea' ? 'deep' : kinds[t.kind].terrain.get(key(l)));
    }
  }

  // Offset coordinates / labels: shift q so the first column is 0, then rows so the top is 0.
  let minQ = Infinity;
  let maxQ = -Infinity;
  for (const k of terrain.keys()) {
    const [q] = unkey(k);
    minQ = Math.min(minQ, q);
    maxQ = Math.max(maxQ, q);
  }
  const rawRow = ([q, r]) => {
    const c = q - minQ;
    return r + (c - (c & 1)) / 2;
  };
  let minRow = Infinity;
  let maxRow = -Infinity;
  for (const k of terrain.keys()) {
    const rr = rawRow(unkey(k));
    minRow = Math.min(minRow, rr);
    maxRow = Math.max(maxRow, rr);
  }
  const columns = maxQ - minQ + 1;
  const rows = maxRow - minRow + 1;
  const colRow = (h) => [h[0] - minQ, rawRow(h) - minRow];
  const label = (h) => {
    const [c, rr] = colRow(h);
    return String(c + 1).padStart(2, '0') + String(rr + 1).padStart(2, '0');
  };
  const fromColRow = (c, rr) => {
    const q = c + minQ;
    const r = rr + minRow - (c - (c & 1)) / 2;
    return [q, r];
  };

  // Roads and rivers from the tiles, plus port links.
  const roadPaths = [];
  const riverPaths = [];
  const portRoadEnds = new Set();
  for (const t of tiles) {
    if (t.kind === 'sea') continue;
    const k = kinds[t.kind];
    for (const p of k.roads) {
      const g = p.map((l) => toGlobal(t, l));
      roadPaths.push(g);
      for (const end of [g[0], g[g.length - 1]]) portRoadEnds.add(key(end));
    }
    for (const p of k.rivers) riverPaths.push(p.map((l) => toGlobal(t, l)));
  }
  const links = [];
  const danglingPorts = [];
  for (const t of tiles) {
    if (t.kind === 'sea') continue;
    for (const side of SIDES) {
      const canonicalSide = turnSide(side, -t.rotation);
      const p = toGlobal(t, port(canonicalSide));
      if (!portRoadEnds.has(key(p))) continue;
      const nbCentre = add(t.centre, SIDE_VEC[side]);
      const nb = tiles.find((x) => x.centre[0] === nbCentre[0] && x.centre[1] === nbCentre[1]);
      const opposite = turnSide(side, 3);
      const nbPort = nb ? add(nb.centre, port(opposite)) : null;
      if (nb && nb.kind !== 'sea' && portRoadEnds.has(key(nbPort))) {
        if (dist(p, nbPort) !== 1) throw new Error(`CHECK ports: ${t.id} ${side} port not adjacent to ${nb.id}`);
        if (t.id < nb.id) links.push([p, nbPort]);
      } else danglingPorts.push(`${t.id}:${side}`);
    }
  }
  if (danglingPorts.length) throw new Error(`CHECK roads: road ends at a port with no road beyond: ${danglingPorts.join(', ')}`);

  // Road graph -> maximal paths between junctions/ends (deterministic).
  const roadAdj = new Map();
  const addEdge = (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (!roadAdj.has(ka)) roadAdj.set(ka, new Set());
    if (!roadAdj.has(kb)) roadAdj.set(kb, new Set());
    roadAdj.get(ka).add(kb);
    roadAdj.get(kb).add(ka);
  };
  for (const p of [...roadPaths, ...links]) {
    for (let i = 1; i < p.length; i++) {
      if (dist(p[i - 1], p[i]) !== 1) throw new Error(`CHECK roads: ${key(p[i - 1])} and ${key(p[i])} not adjacent`);
      addEdge(p[i - 1], p[i]);
    }
  }
  const byLabel = (a, b) => (label(unkey(a)) < label(unkey(b)) ? -1 : 1);
  const roads = chains(roadAdj, byLabel);

  // Overlays
  const cities = CITIES.map((c) => ({
    id: c.id,
    name: c.name,
    hexes: parsePath(c.hexes).map((l) => toGlobal(tileById.get(c.tile), l)),
    capital: c.capital,
    tile: c.tile,
  }));
  const airfields = AIRFIELDS.map((a) => ({
    id: a.id,
    name: a.name,
    hexes: parsePath(a.hexes).map((l) => toGlobal(tileById.get(a.tile), l)),
    owner: 'P2',
    tile: a.tile,
  }));

  // Bridges: river bridges where a road runs through a river hex; islet bridge = road hexes on
  // water.
  const roadHexes = new Set(roadAdj.keys());
  const riverHexes = new Set(riverPaths.flat().map(key));
  const bridges = [];
  for (const k of [...riverHexes].filter((k) => roadHexes.has(k)).sort(byLabel)) {
    bridges.push({
      hex: unkey(k),
      passage: { P1: 'none', P2: 'none' },
      note: 'River bridge: road over a navigable river; no boat may pass under it (GT-2.46).',
      kind: 'river',
    });
  }
  const isletTile = tileById.get(ISLET_TILE);
  const isletLand = new Set();
  for (const l of TILE_HEXES) {
    const g = toGlobal(isletTile, l);
    if (isLand(terrain.get(key(g)))) isletLand.add(key(g));
  }
  const waterRoad = [...roadHexes].filter((k) => isWater(terrain.get(k)));
  const islet = waterRoad.filter((k) => owner.get(k).id === ISLET_TILE);
  if (islet.length !== waterRoad.length) throw new Error('CHECK roads: road on water outside the islet bridge');
  // Order the chain from the islet outwards.
  const chainOrdered = [];
  let cur = islet.find((k) => neighbours(unkey(k)).some((n) => isletLand.has(key(n)) && roadHexes.has(key(n))));
  const seen = new Set();
  while (cur) {
    chainOrdered.push(cur);
    seen.add(cur);
    cur = [...roadAdj.get(cur)].find((n) => islet.includes(n) && !seen.has(n));
  }
  if (chainOrdered.length !== islet.length) throw new Error('CHECK bridge: islet bridge hexes are not one chain');
  chainOrdered.forEach((k, i) => {
    const nearest = i === 0;
    bridges.push({
      hex: unkey(k),
      passage: { P1: nearest ? ['ship'] : 'none', P2: 'all' },
      note: nearest
        ? `Islet bridge, hex ${i + 1} of ${chainOrdered.length} (nearest the islet, deep water): P1 ships may pass under it here only; P2 boats may pass (GT-3.3).`
        : `Islet bridge, hex ${i + 1} of ${chainOrdered.length} (shallow water): P1 may not pass under it; P2 boats may pass (GT-3.3).`,
      kind: 'islet',
    });
  });

  return {
    kinds, tiles, tileById, terrain, owner, columns, rows, label, colRow, fromColRow,
    roads, roadAdj, roadHexes, riverPaths, riverHexes, cities, airfields, bridges,
    isletLand, bridgeChain: chainOrdered,
  };
}

// Decompose an undirected graph into maximal paths whose inner nodes have degree 2.
function chains(adj, cmp) {
  const used = new Set();
  const ek = (a, b) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  const out = [];
  const nodes = [...adj.keys()].sort(cmp);
  const walk = (start, next) => {
    const path = [start, next];
    used.add(ek(start, next));
    let prev = start;
    let at = next;
    while (adj.get(at).size === 2) {
      const n = [...adj.get(at)].find((x) => x !== prev);
      if (used.has(ek(at, n))) break;
      used.add(ek(at, n));
      path.push(n);
      prev = at;
      at = n;
    }
    return path;
  };
  for (const n of nodes) {
    if (adj.get(n).size === 2) continue;
    for (const m of [...adj.get(n)].sort(cmp)) if (!used.has(ek(n, m))) out.push(walk(n, m));
  }
  for (const n of nodes) {
    for (const m of [...adj.get(n)].sort(cmp)) if (!used.has(ek(n, m))) out.push(walk(n, m)); // cycles
  }
  // A closed loop (first hex = last hex) is split in two so that no path repeats a hex.
  const simple = [];
  for (const p of out) {
    if (p.length > 3 && p[0] === p[p.length - 1]) {
      const mid = Math.floor(p.length / 2);
      simple.push(p.slice(0, mid + 1), p.slice(mid));
    } else simple.push(p);
  }
  for (const p of simple) if (new Set(p).size !== p.length) throw new Error(`CHECK roads: path repeats a hex`);
  return simple.map((p) => p.map(unkey));
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------
function check(m) {
  const fail = (msg) => {
    throw new Error(`CHECK failed: ${msg}`);
  };
  const T = (h) => m.terrain.get(key(h));
  const onMap = (h) => m.terrain.has(key(h));
  const facts = {};

  // Tiling: translations and coverage.
  {
    const lattice = [U, V, W, mul(U, -1), mul(V, -1), mul(W, -1)];
    const centreSet = new Set([[0, 0], ...lattice].map(key));
    const cover = new Map();
    for (const c of [[0, 0], ...lattice]) for (const l of TILE_HEXES) {
      const k = key(add(c, l));
      if (cover.has(k)) fail(`tile translations overlap at ${k}`);
      cover.set(k, c);
    }
    // Every hex within distance 4 of the centre tile is covered by one of the 7 tiles (no gaps).
    for (let q = -4; q <= 4; q++) for (let r = -4; r <= 4; r++) {
      if (dist([q, r], [0, 0]) <= 4 && !cover.has(key([q, r]))) fail(`tile translations leave a gap at ${q},${r}`);
    }
    if (centreSet.size !== 7) fail('tile lattice degenerate');
    if (m.tiles.length !== 24) fail(`${m.tiles.length} tiles, need 24`);
    if (m.terrain.size !== 24 * 37) fail('tiles overlap');
    const island = m.tiles.filter((t) => t.kind !== 'sea');
    if (island.length !== 10) fail('need 10 island tiles');
    const counts = {};
    for (const t of island) counts[t.kind] = (counts[t.kind] ?? 0) + 1;
    for (const [k, n] of Object.entries(EXPECTED_KIND_COUNTS)) if (counts[k] !== n) fail(`kind ${k} used ${counts[k]} times, need ${n}`);
    const rowsOfIsland = [1, 2, 3].map((row) => island.filter((t) => t.row === row).length);
    if (rowsOfIsland.join() !== '3,4,3') fail(`island rows ${rowsOfIsland}`);
    // Tile sides: a coastal kind's sea sides must face sea tiles, its land sides island tiles.
    for (const t of island) {
      if (t.id === ISLET_TILE) continue;
      for (const side of SIDES) {
        const nbC = add(t.centre, SIDE_VEC[side]);
        const nb = m.tiles.find((x) => key(x.centre) === key(nbC));
        const seaSide = KINDS[t.kind].seaSides.includes(turnSide(side, -t.rotation));
        const nbSea = !nb || nb.kind === 'sea';
        if (seaSide !== nbSea) fail(`tile ${t.id}: side ${side} is ${seaSide ? 'sea' : 'land'} but faces ${nb ? nb.id : 'nothing'}`);
      }
    }
  }

  // Labels unique, all on-map hexes inside the rectangle.
  {
    const labels = new Set();
    for (const k of m.terrain.keys()) {
      const l = m.label(unkey(k));
      if (labels.has(l)) fail(`label ${l} not unique`);
      const [c, r] = m.colRow(unkey(k));
      if (c < 0 || r < 0 || c >= m.columns || r >= m.rows) fail(`hex ${l} outside the grid`);
      labels.add(l);
    }
    if (m.columns > 99 || m.rows > 99) fail('grid too large for CCRR labels');
  }

  // Roads: adjacency (already checked when building), only on land, city or bridge hexes.
  const cityOf = new Map();
  for (const c of m.cities) for (const h of c.hexes) {
    if (cityOf.has(key(h))) fail(`hex ${m.label(h)} in two cities`);
    cityOf.set(key(h), c);
  }
  const bridgeHexes = new Set(m.bridges.map((b) => key(b.hex)));
  for (const p of m.roads) {
    for (let i = 0; i < p.length; i++) {
      if (!onMap(p[i])) fail(`road hex off map`);
      if (i && dist(p[i - 1], p[i]) !== 1) fail(`road ${m.label(p[i - 1])}-${m.label(p[i])} not adjacent`);
      const k = key(p[i]);
      if (!(isLand(T(p[i])) || cityOf.has(k) || bridgeHexes.has(k))) fail(`road on ${T(p[i])} at ${m.label(p[i])}`);
    }
  }

  // Rivers: adjacent land hexes, ending at a coast (last hex next to shallow water), no cities.
  for (const p of m.riverPaths) {
    p.forEach((h, i) => {
      if (!isLand(T(h))) fail(`river on ${T(h)} at ${m.label(h)}`);
      if (T(h) === 'beach') fail(`river hex ${m.label(h)} is a beach`);
      if (cityOf.has(key(h))) fail(`river through city hex ${m.label(h)}`);
      if (i && dist(p[i - 1], h) !== 1) fail(`river ${m.label(p[i - 1])}-${m.label(h)} not adjacent`);
      if (i < p.length - 1 && neighbours(h).some((n) => isWater(T(n)))) fail(`river reaches the sea before its end at ${m.label(h)}`);
    });
    const mouth = p[p.length - 1];
    if (!neighbours(mouth).some((n) => T(n) === 'shallow')) fail(`river ending at ${m.label(mouth)} does not reach shallow water`);
  }
  // Every road hex on a river is a bridge; every bridge is on a road.
  for (const k of m.riverHexes) if (m.roadHexes.has(k) && !bridgeHexes.has(k)) fail(`road crosses river at ${m.label(unkey(k))} without a bridge`);
  for (const b of m.bridges) if (!m.roadHexes.has(key(b.hex))) fail(`bridge ${m.label(b.hex)} not on a road`);
  for (const b of m.bridges) if (cityOf.has(key(b.hex))) fail(`bridge ${m.label(b.hex)} in a city`);

  // Cities.
  {
    const sizes = m.cities.map((c) => c.hexes.length).sort((a, b) => a - b);
    if (sizes.join() !== '1,1,3,3,4,4,7') fail(`city sizes ${sizes}`);
    const caps = m.cities.filter((c) => c.capital);
    if (caps.length !== 1 || caps[0].hexes.length !== 7) fail('need exactly one 7-hex capital');
    const cap = caps[0].hexes;
    const centre = cap.find((h) => cap.every((x) => dist(x, h) <= 1));
    if (!centre) fail('capital is not a hex plus its six neighbours');
    for (const c of m.cities) {
      for (const h of c.hexes) if (T(h) !== 'clear') fail(`city ${c.id} hex ${m.label(h)} on ${T(h)} (cities lie on clear terrain)`);
      // connected
      const set = new Set(c.hexes.map(key));
      const stack = [c.hexes[0]];
      const seen = new Set([key(c.hexes[0])]);
      while (stack.length) for (const n of neighbours(stack.pop())) if (set.has(key(n)) && !seen.has(key(n))) { seen.add(key(n)); stack.push(n); }
      if (seen.size !== set.size) fail(`city ${c.id} not connected`);
      // not adjacent to other cities
      for (const h of c.hexes) for (const n of neighbours(h)) {
        const o = cityOf.get(key(n));
        if (o && o !== c) fail(`cities ${c.id} and ${o.id} touch at ${m.label(h)}/${m.label(n)}`);
      }
      if (!c.hexes.some((h) => m.roadHexes.has(key(h)))) fail(`city ${c.id} has no road`);
    }
  }

  // Airfields: exactly 3, land, not on or next to a road, not in or next to a city.
  {
    if (m.airfields.length !== 3) fail('need exactly 3 airfields');
    const af = new Set();
    for (const a of m.airfields) for (const h of a.hexes) {
      if (af.has(key(h))) fail('airfields overlap');
      af.add(key(h));
      if (T(h) !== 'clear') fail(`airfield ${a.id} at ${m.label(h)} on ${T(h)}`);
      if (m.roadHexes.has(key(h)) || neighbours(h).some((n) => m.roadHexes.has(key(n)))) fail(`airfield ${a.id} touches a road (GT-3.12)`);
      if (cityOf.has(key(h)) || neighbours(h).some((n) => cityOf.has(key(n)))) fail(`airfield ${a.id} touches a city`);
      if (m.riverHexes.has(key(h))) fail(`airfield ${a.id} on a river`);
    }
  }

  // Road network: all cities connected (city hexes of one city count as joined).
  {
    const adj = new Map();
    const link = (a, b) => {
      if (!adj.has(a)) adj.set(a, new Set());
      if (!adj.has(b)) adj.set(b, new Set());
      adj.get(a).add(b);
      adj.get(b).add(a);
    };
    for (const [a, ns] of m.roadAdj) for (const b of ns) link(a, b);
    for (const c of m.cities) for (const h of c.hexes) link(key(h), `city:${c.id}`);
    const start = `city:${m.cities[0].id}`;
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length) for (const n of adj.get(stack.pop()) ?? []) if (!seen.has(n)) { seen.add(n); stack.push(n); }
    for (const c of m.cities) if (!seen.has(`city:${c.id}`)) fail(`city ${c.id} not on the road network`);
    for (const k of m.roadAdj.keys()) if (!seen.has(k)) fail(`road at ${m.label(unkey(k))} not connected to the network`);
  }

  // Islet: its land is not land-connected to the main island; the only way across is the road
  // over the bridge chain, whose islet end is on islet land and whose other end is next to a
  // city, entered from that city along the road.
  {
    const mainLand = new Set();
    const landKeys = [...m.terrain.keys()].filter((k) => isLand(m.terrain.get(k)));
    const start = landKeys.find((k) => !m.isletLand.has(k));
    const stack = [start];
    mainLand.add(start);
    while (stack.length) for (const n of neighbours(unkey(stack.pop()))) {
      const k = key(n);
      if (isLand(m.terrain.get(k)) && !mainLand.has(k)) { mainLand.add(k); stack.push(k); }
    }
    for (const k of m.isletLand) if (mainLand.has(k)) fail('islet is land-connected to the main island');
    if (mainLand.size + m.isletLand.size !== landKeys.length) fail('more than two land masses');
    if (m.bridgeChain.length < 2) fail('islet bridge needs at least two water hexes');
    const first = unkey(m.bridgeChain[0]);
    const last = unkey(m.bridgeChain[m.bridgeChain.length - 1]);
    if (T(first) !== 'deep') fail(`bridge hex nearest the islet (${m.label(first)}) must be deep water`);
    // a ship can actually pass: deep water on two non-adjacent sides of the nearest hex
    const deepNb = neighbours(first).filter((n) => T(n) === 'deep' && !m.roadHexes.has(key(n)));
    const passes = deepNb.some((a) => deepNb.some((b) => dist(a, b) >= 2));
    if (!passes) fail('no deep-water passage through the bridge hex nearest the islet');
    const landEnd = neighbours(last).filter((n) => mainLand.has(key(n)) && m.roadHexes.has(key(n)) && m.roadAdj.get(m.bridgeChain[m.bridgeChain.length - 1]).has(key(n)));
    if (landEnd.length !== 1) fail('islet bridge must end on one main-island road hex');
    const city = cityOf.get(key(landEnd[0]));
    if (!city) fail('the island end of the islet bridge must be a city hex');
    const offRoadCity = neighbours(last).filter((n) => cityOf.get(key(n)) === city && key(n) !== key(landEnd[0]));
    facts.bridgeCity = city;
    facts.bridgeCityOffRoad = offRoadCity;
    facts.bridgeLandEnd = landEnd[0];
    const isletEnd = neighbours(first).filter((n) => m.isletLand.has(key(n)) && m.roadHexes.has(key(n)));
    if (isletEnd.length !== 1) fail('islet bridge must start at one islet road hex');
    facts.bridgeIsletEnd = isletEnd[0];
  }

  // Water: every beach is next to shallow water, and that shallow water can be reached from the
  // open sea; the LHD/LSD setup condition can be met; P2 boats have shore hexes.
  {
    const deepAll = [...m.terrain.keys()].filter((k) => m.terrain.get(k) === 'deep');
    // open sea = the largest deep-water component
    const comp = new Map();
    let best = null;
    for (const k of deepAll) {
      if (comp.has(k)) continue;
      const members = [k];
      comp.set(k, k);
      for (let i = 0; i < members.length; i++) for (const n of neighbours(unkey(members[i]))) {
        const nk = key(n);
        if (m.terrain.get(nk) === 'deep' && !comp.has(nk)) { comp.set(nk, k); members.push(nk); }
      }
      if (!best || members.length > best.length) best = members;
    }
    const openSea = new Set(best);
    if (openSea.size !== deepAll.length) fail('some deep water is cut off from the open sea');
    // shallow water reachable from the open sea (through shallow water)
    const reach = new Set();
    const stack = [];
    for (const k of openSea) for (const n of neighbours(unkey(k))) if (T(n) === 'shallow' && !reach.has(key(n))) { reach.add(key(n)); stack.push(n); }
    while (stack.length) for (const n of neighbours(stack.pop())) if (T(n) === 'shallow' && !reach.has(key(n))) { reach.add(key(n)); stack.push(n); }
    const beaches = [...m.terrain.keys()].filter((k) => m.terrain.get(k) === 'beach').map(unkey);
    for (const b of beaches) {
      if (!neighbours(b).some((n) => T(n) === 'shallow')) fail(`beach ${m.label(b)} not adjacent to shallow water`);
      if (!neighbours(b).some((n) => reach.has(key(n)))) fail(`beach ${m.label(b)} cannot be reached from the open sea`);
    }
    facts.beaches = beaches;
    // LHD/LSD: deep, not adjacent to shallow (GT-4.14), two such within 3 hexes.
    const shipOk = deepAll.map(unkey).filter((h) => !neighbours(h).some((n) => T(n) === 'shallow'));
    const okSet = new Set(shipOk.map(key));
    const pairs = shipOk.filter((h) => shipOk.some((o) => key(o) !== key(h) && dist(o, h) <= 3));
    if (pairs.length < 20) fail('too little deep water for the LHD/LSD setup (GT-4.14)');
    facts.shipOk = shipOk;
    facts.shipOkSet = okSet;
    // P2 boats at the shore (Q-GT-15): shallow water adjacent to land.
    const shore = [...reach].map(unkey).filter((h) => neighbours(h).some((n) => isLand(T(n))));
    if (shore.length < 10) fail('too few shore hexes for P2 boats (GT-4.5)');
    facts.shore = shore;
    // river mouths reachable by boats
    for (const p of m.riverPaths) {
      const mouth = p[p.length - 1];
      if (!neighbours(mouth).some((n) => reach.has(key(n)))) fail(`river mouth ${m.label(mouth)} not reachable from the sea`);
    }
  }

  // Land hexes are not on the map edge (the island is surrounded by sea).
  for (const [k, t] of m.terrain) {
    if (!isLand(t)) continue;
    if (m.owner.get(k).kind === 'sea') fail('land on a sea tile');
  }
  return facts;
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------
const CHAR_OF = Object.fromEntries(Object.entries(TERRAIN).map(([c, t]) => [t, c]));

function toJson(m) {
  const terrainRows = [];
  for (let r = 0; r < m.rows; r++) {
    let s = '';
    for (let c = 0; c < m.columns; c++) {
      const t = m.terrain.get(key(m.fromColRow(c, r)));
      s += t ? CHAR_OF[t] : OFF_MAP;
    }
    terrainRows.push(s);
  }
  const legend = { [OFF_MAP]: null };
  for (const [c, t] of Object.entries(TERRAIN)) legend[c] = t;
  const L = (h) => m.label(h);
  return {
    columns: m.columns,
    rows: m.rows,
    terrainRows,
    legend,
    roads: m.roads.map((p) => p.map(L)),
    rivers: m.riverPaths.map((p) => p.map(L)),
    bridges: m.bridges.map((b) => ({ hex: L(b.hex), passage: b.passage, note: b.note })),
    cities: m.cities.map((c) => ({ id: c.id, name: c.name, hexes: c.hexes.map(L), capital: c.capital })),
    airfields: m.airfields.map((a) => ({ id: a.id, name: a.name, hexes: a.hexes.map(L), owner: a.owner })),
    tiles: m.tiles.map((t) => ({ id: t.id, kind: t.kind, center: L(t.centre), rotation: t.rotation })),
  };
}

// Re-check the JSON itself, reading labels back with the published formula (q = c,
// r = R - (c - (c & 1)) / 2 for 0-based column c and row R), so that the file, not just the
// generator's internal model, is what is verified.
function checkJson(j) {
  const fail = (msg) => {
    throw new Error(`CHECK failed (map.json): ${msg}`);
  };
  if (j.terrainRows.length !== j.rows) fail('terrainRows length');
  for (const row of j.terrainRows) if (row.length !== j.columns) fail('terrainRows width');
  for (const row of j.terrainRows) for (const ch of row) if (!(ch in j.legend)) fail(`char ${ch} not in legend`);
  const ax = (lab) => {
    if (!/^\d{4}$/.test(lab)) fail(`bad label ${lab}`);
    const c = Number(lab.slice(0, 2)) - 1;
    const R = Number(lab.slice(2)) - 1;
    if (c < 0 || R < 0 || c >= j.columns || R >= j.rows) fail(`label ${lab} outside the grid`);
    return [c, R - (c - (c & 1)) / 2];
  };
  const terr = (lab) => {
    const t = j.legend[j.terrainRows[Number(lab.slice(2)) - 1][Number(lab.slice(0, 2)) - 1]];
    if (t === null) fail(`label ${lab} is off-map`);
    return t;
  };
  const adj = (a, b) => dist(ax(a), ax(b)) === 1;
  const cityOf = new Map();
  for (const c of j.cities) for (const h of c.hexes) cityOf.set(h, c.id);
  const bridgeSet = new Set(j.bridges.map((b) => b.hex));
  const roadSet = new Set(j.roads.flat());
  for (const p of j.roads) p.forEach((h, i) => {
    if (i && !adj(p[i - 1], h)) fail(`road ${p[i - 1]}-${h} not adjacent`);
    if (isWater(terr(h)) && !bridgeSet.has(h)) fail(`road on water at ${h}`);
  });
  for (const p of j.rivers) p.forEach((h, i) => {
    if (i && !adj(p[i - 1], h)) fail(`river ${p[i - 1]}-${h} not adjacent`);
    if (!isLand(terr(h))) fail(`river on water at ${h}`);
  });
  for (const b of j.bridges) if (!roadSet.has(b.hex)) fail(`bridge ${b.hex} not on a road`);
  for (const c of j.cities) for (const h of c.hexes) for (const o of j.cities) {
    if (o === c) continue;
    for (const g of o.hexes) if (h === g || adj(h, g)) fail(`cities ${c.id} and ${o.id} touch`);
  }
  for (const a of j.airfields) for (const h of a.hexes) for (const r of roadSet) if (h === r || adj(h, r)) fail(`airfield ${a.id} touches road ${r}`);
  for (const t of j.tiles) terr(t.center);
}

// Compact, stable JSON: arrays of scalars on one line, everything else indented.
function stringify(v, indent = '') {
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) {
      const one = `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
      if (one.length + indent.length <= 110 || !v.every((x) => typeof x === 'string' && x.length > 20)) return one;
    }
    return `[\n${v.map((x) => inner + stringify(x, inner)).join(',\n')}\n${indent}]`;
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    const flat = entries.every(([, x]) => x === null || typeof x !== 'object' || (Array.isArray(x) && x.every((y) => typeof y !== 'object')));
    const one = `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${stringify(x, inner)}`).join(', ')} }`;
    if (flat && one.length + indent.length <= 110) return one;
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${stringify(x, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(v);
}

const GLYPH = { deep: '~', shallow: '-', beach: ':', clear: '.', jungle: '&', hills: '^', swamp: '%' };
const KEY_TEXT = [
  'Each hex is two characters: terrain, then overlay (terrain repeated if there is none).',
  'Terrain:  ~ deep   - shallow   : beach   . clear   & jungle   ^ hills   % swamp',
  'Overlay:  @ capital   # city   A airfield   = bridge   + road   r river   (blank) off-map',
  'Odd columns are half a hex lower: each map row is two text lines, the first holding the',
  'odd-numbered labels (columns 01, 03, ...), the second the even-numbered ones.',
];

function ascii(m) {
  const cityOf = new Map();
  for (const c of m.cities) for (const h of c.hexes) cityOf.set(key(h), c);
  const af = new Set(m.airfields.flatMap((a) => a.hexes.map(key)));
  const br = new Set(m.bridges.map((b) => key(b.hex)));
  const lines = [];
  for (const parity of [0, 1]) {
    let head = '     ';
    for (let c = 0; c < m.columns; c++) head += (c & 1) === parity ? String(c + 1).padStart(2, '0') : '  ';
    lines.push(head.trimEnd());
  }
  for (let r = 0; r < m.rows; r++) {
    for (const parity of [0, 1]) {
      let s = parity === 0 ? `${String(r + 1).padStart(2, '0')}   ` : '     ';
      for (let c = 0; c < m.columns; c++) {
        if ((c & 1) !== parity) {
          s += '  ';
          continue;
        }
        const h = m.fromColRow(c, r);
        const k = key(h);
        const t = m.terrain.get(k);
        if (!t) {
          s += '  ';
          continue;
        }
        const g = GLYPH[t];
        let o = g;
        const city = cityOf.get(k);
        if (city) o = city.capital ? '@' : '#';
        else if (af.has(k)) o = 'A';
        else if (br.has(k)) o = '=';
        else if (m.roadHexes.has(k)) o = '+';
        else if (m.riverHexes.has(k)) o = 'r';
        s += g + o;
      }
      lines.push(s.trimEnd());
    }
  }
  return lines.join('\n');
}

function summary(m, facts) {
  const L = (h) => m.label(h);
  const out = [];
  out.push(`grid ${m.columns} x ${m.rows}, ${m.terrain.size} hexes on the map`);
  for (const t of m.tiles.filter((x) => x.kind !== 'sea')) out.push(`tile ${t.id}: kind ${t.kind} (${KINDS[t.kind].name}), rotation ${t.rotation}, centre ${L(t.centre)}`);
  for (const c of m.cities) out.push(`city ${c.id}${c.capital ? ' (capital)' : ''}: ${c.hexes.map(L).join(' ')}`);
  for (const a of m.airfields) out.push(`airfield ${a.id}: ${a.hexes.map(L).join(' ')}`);
  for (const b of m.bridges) out.push(`bridge ${L(b.hex)}: P1 ${JSON.stringify(b.passage.P1)} P2 ${JSON.stringify(b.passage.P2)}`);
  out.push(`islet land: ${[...m.isletLand].map((k) => L(unkey(k))).sort().join(' ')}`);
  out.push(`bridge: islet end ${L(facts.bridgeIsletEnd)}, island end ${L(facts.bridgeLandEnd)} (${facts.bridgeCity.id}); other ${facts.bridgeCity.id} hexes next to the bridge: ${facts.bridgeCityOffRoad.map(L).join(' ') || 'none'}`);
  out.push(`rivers: ${m.riverPaths.map((p) => p.map(L).join('-')).join('; ')}`);
  const byTile = {};
  for (const b of facts.beaches) (byTile[m.owner.get(key(b)).id] ??= []).push(L(b));
  out.push(`beaches (${facts.beaches.length}), by tile: ${Object.entries(byTile).map(([t, bs]) => `${t}: ${bs.sort().join(' ')}`).join('; ')}`);
  // Suggested LHD/LSD setup pairs: the ship-legal hex closest to each coastal tile's beaches,
  // and a second ship-legal hex 2-3 hexes from it, also as close to that tile as possible.
  const pairs = [];
  for (const [t, bs] of Object.entries(byTile)) {
    const beachHexes = facts.beaches.filter((b) => m.owner.get(key(b)).id === t);
    const near = (h) => Math.min(...beachHexes.map((b) => dist(b, h)));
    const sorted = [...facts.shipOk].sort((a, b) => near(a) - near(b) || (L(a) < L(b) ? -1 : 1));
    const lhd = sorted[0];
    const lsd = sorted.find((h) => dist(h, lhd) >= 2 && dist(h, lhd) <= 3);
    pairs.push(`${t}: LHD ${L(lhd)} (${near(lhd)} from a beach), LSD ${L(lsd)} (${dist(lhd, lsd)} from the LHD)`);
  }
  out.push(`ship setup (GT-4.14) suggestions: ${pairs.join('; ')}`);
  out.push(`ship-setup deep hexes (not next to shallow): ${facts.shipOk.length}; shore hexes for P2 boats: ${facts.shore.length}`);
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
const args = new Set(process.argv.slice(2));
const map = build();
const facts = check(map);
const json = toJson(map);
checkJson(json);
const text = stringify(json) + '\n';
if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(json)) throw new Error('CHECK failed: JSON formatting round trip');
if (args.has('--ascii')) {
  console.log(ascii(map));
  console.log('');
  console.log(KEY_TEXT.join('\n'));
} else if (args.has('--check')) {
  let old = '';
  try {
    old = readFileSync(OUT, 'utf8');
  } catch {
    /* missing */
  }
  if (old !== text) {
    console.error(`${OUT} is out of date: run node scripts/maps/unnarstan.mjs`);
    process.exit(1);
  }
  console.log('map.json is up to date; all checks passed');
} else {
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, text);
  console.log(ascii(map));
  console.log('');
  console.log(KEY_TEXT.join('\n'));
  console.log('');
  console.log(summary(map, facts));
  console.log(`\nall checks passed; wrote ${OUT}`);
}
