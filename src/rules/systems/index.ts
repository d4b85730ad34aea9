import type { GameSystem } from '../engine/types';
import { gators } from './gators';

/** The game systems this server plays. A scenario folder names one of them by id. */
export const SYSTEMS: readonly GameSystem[] = [gators];
