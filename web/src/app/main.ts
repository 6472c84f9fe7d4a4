// The UI thread's entry: wires the page to the audit worker. It never parses data; it posts the
// File (a handle, not a copy) to the worker and renders the Reports that come back. After the
// first audit, every change of a role or a setting is recomputed from the table the worker
// keeps (recompute.ts, freshness.ts keep the results shown in step with the settings). Each
// concept has its file: the job (job.ts), its passes (passes.ts), progress (progress.ts), the
// worker's messages (dispatch.ts), the profile (profile.ts), the audit's results
// (audit-results.ts), downloads (downloads.ts), the comparison of candidates (compare.ts),
// settings from a link or a file (intake.ts), reading again (reading.ts) and step 1's inputs
// (inputs.ts).

import 'uplot/dist/uPlot.min.css';
import './style.css';
import '../results/attribute/attribute.css';
import '../results/utility/utility.css';
import '../results/balance/balance.css';
import { onWorkerMessage } from './dispatch';
import { routeMessages } from './engine';
import { wireInputs } from './inputs';
import { wireSettingsIntake } from './intake';
import { registerOffline } from './offline';
import { wireReading } from './reading';

registerOffline();
routeMessages(onWorkerMessage);
wireSettingsIntake();
wireReading();
wireInputs();
