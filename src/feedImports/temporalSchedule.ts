// On the production stack the feed imports' schedule is a Temporal schedule: it fires `runDueFeedImports` on the task
// queue every interval (never two at once), and Temporal keeps it across restarts of every process.
import { Client, Connection, ScheduleAlreadyRunning } from '@temporalio/client';

export const feedScheduleId = (taskQueue: string) => `feed-imports-${taskQueue}`;

/** Creates the schedule, or sets its interval when it exists with another. */
export async function ensureFeedSchedule(address: string, namespace: string, taskQueue: string, intervalMs: number): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection, namespace });
    const scheduleId = feedScheduleId(taskQueue);
    const spec = { intervals: [{ every: intervalMs }] };
    try {
      await client.schedule.create({
        scheduleId,
        spec,
        action: { type: 'startWorkflow', workflowType: 'runDueFeedImports', taskQueue, workflowId: scheduleId, args: [] },
        policies: { overlap: 'SKIP', catchupWindow: intervalMs },
      });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec }));
    }
  } finally {
    await connection.close();
  }
}
