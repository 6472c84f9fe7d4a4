// Playwright configuration of the browser bench against DuckDB-wasm (not a test suite:
// `scripts/bench.sh --browser`). Serves this checkout's built page (servedBench).
import { servedBench } from './bench.config';

export default servedBench('peer.bench.ts', 'bench-peer', 4273);
