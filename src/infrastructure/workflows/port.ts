// The workflow port: starts one generation of a content item, at most once per (item, generation).
import type { GenerationInput } from '../../generation/lifecycle.ts';

export interface WorkflowRunner {
  /** Idempotent: starting a generation that runs or ran already does nothing. */
  startGeneration(input: GenerationInput): Promise<void>;
  close(): Promise<void>;
}

export const generationWorkflowId = ({ contentId, generation }: GenerationInput) => `generate-${contentId}-${generation}`;
