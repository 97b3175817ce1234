// Prebuilds the Temporal workflow bundle for production images (build/workflows.js).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

const { code } = await bundleWorkflowCode({ workflowsPath: path.join(import.meta.dirname, '../workflows/index.ts') });
mkdirSync(path.join(import.meta.dirname, '../build'), { recursive: true });
writeFileSync(path.join(import.meta.dirname, '../build/workflows.js'), code);
