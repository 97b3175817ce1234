// Temporal workflow runner: starts the generation workflow on a Temporal server; a worker runs it.
import { Client, Connection } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { generationWorkflowId, type WorkflowRunner } from './port.ts';

export async function createTemporalRunner(address: string, namespace: string, taskQueue: string): Promise<WorkflowRunner> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });
  return {
    async startGeneration(input) {
      try {
        await client.workflow.start('generateContent', {
          taskQueue,
          workflowId: generationWorkflowId(input),
          args: [input],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },
    async close() {
      await connection.close();
    },
  };
}
