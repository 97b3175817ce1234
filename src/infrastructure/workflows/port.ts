// The workflow port: starts one generation of a content item, at most once per (item, generation),
// and one webhook delivery, at most once per delivery id.
import type { GenerationInput } from '../../generation/lifecycle.ts';
import type { DeliveryInput } from '../../webhooks/delivery.ts';

export interface WorkflowRunner {
  /** Idempotent: starting a generation that runs or ran already does nothing. */
  startGeneration(input: GenerationInput): Promise<void>;
  /** Idempotent: starting a delivery that runs or ran already does nothing. */
  startDelivery(input: DeliveryInput): Promise<void>;
  close(): Promise<void>;
}

export const generationWorkflowId = ({ contentId, generation }: GenerationInput) => `generate-${contentId}-${generation}`;
export const deliveryWorkflowId = ({ deliveryId }: DeliveryInput) => `deliver-${deliveryId}`;
/** The task queue of bulk generations (regenerations) beside the main one, `TEMPORAL_TASK_QUEUE`. */
export const bulkTaskQueue = (taskQueue: string) => `${taskQueue}-bulk`;
