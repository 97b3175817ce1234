// Temporal workflow runner: starts the generation and delivery workflows on a Temporal server; a worker runs them.
import { Client, Connection } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { bulkTaskQueue, deliveryWorkflowId, generationWorkflowId, type WorkflowRunner } from './port.ts';

export async function createTemporalRunner(address: string, namespace: string, taskQueue: string): Promise<WorkflowRunner> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });
  /** A workflow id that exists already (running or closed) means the work was started: nothing to do. */
  const startOnce = async (workflow: string, workflowId: string, input: unknown, queue = taskQueue) => {
    try {
      await client.workflow.start(workflow, { taskQueue: queue, workflowId, args: [input], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };
  return {
    // Bulk work has a task queue of its own, which workers poll with few slots: its backlog never stands before an interactive item.
    startGeneration: (input) => startOnce('generateContent', generationWorkflowId(input), input, input.lane === 'bulk' ? bulkTaskQueue(taskQueue) : taskQueue),
    startDelivery: (input) => startOnce('deliverWebhook', deliveryWorkflowId(input), input),
    async close() {
      await connection.close();
    },
  };
}
