// The heuristic's accuracy tables and speed alone (the full bench takes minutes on a 2-core machine).
// Run after `pnpm build`: node bench/heuristic.ts
import { logHeuristicTables } from './heuristic-tables.ts';

logHeuristicTables((line = '') => console.log(line));
