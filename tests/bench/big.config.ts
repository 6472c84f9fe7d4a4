// Playwright configuration of the 2 GB page bench (not a test suite: `scripts/bench.sh
// --browser-big`). Serves this checkout's built page (servedBench).
import { servedBench } from './bench.config';

export default servedBench('big.bench.ts', 'bench-big', 4274);
