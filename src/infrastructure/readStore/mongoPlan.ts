// Reads the query plans MongoDB and FerretDB report (`explain`) down to the indexes they use and whether they scan.
import type { QueryPlan } from './port.ts';

type Stage = Record<string, unknown>;

const isStage = (value: unknown): value is Stage => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A stage and every stage under it: MongoDB nests `inputStage`/`inputStages`, PostgreSQL `Plans`. */
function* stagesOf(stage: unknown): Generator<Stage> {
  if (!isStage(stage)) return;
  yield stage;
  for (const key of ['inputStage', 'queryPlan']) yield* stagesOf(stage[key]);
  for (const key of ['inputStages', 'Plans']) if (Array.isArray(stage[key])) for (const child of stage[key]) yield* stagesOf(child);
}

/** MongoDB's own plan: IXSCAN names an index, IDHACK is the `_id` index, COLLSCAN reads every document. */
function mongoPlan(winning: unknown): QueryPlan {
  const indexes = new Set<string>();
  let fullScan = false;
  for (const stage of stagesOf(winning)) {
    const name = String(stage.stage);
    if (/IXSCAN$/.test(name)) indexes.add(stage.indexName === '_id_' ? '_id' : String(stage.indexName));
    if (/IDHACK$/.test(name)) indexes.add('_id');
    if (name === 'COLLSCAN') fullScan = true;
  }
  return { indexes: [...indexes], fullScan, planner: 'mongodb', detail: JSON.stringify(winning) };
}

/**
 * FerretDB 1.x on PostgreSQL reports PostgreSQL's plan of its SQL. Its indexes are named
 * `<table>_<index>_<hash>_idx`; a Seq Scan reads the whole table.
 */
function ferretPlan(plan: unknown): QueryPlan {
  const indexes = new Set<string>();
  let fullScan = false;
  for (const stage of stagesOf(plan)) {
    const type = String(stage['Node Type']);
    if (type === 'Seq Scan') fullScan = true;
    if (typeof stage['Index Name'] === 'string') {
      const table = String(stage['Relation Name'] ?? '');
      const name = stage['Index Name'].replace(`${table}_`, '').replace(/_[0-9a-f]{8}_idx$/, '');
      indexes.add(name === '_id_' || name === '_id' ? '_id' : name);
    }
  }
  return { indexes: [...indexes], fullScan, planner: 'ferretdb', detail: JSON.stringify(plan) };
}

/** The plan of an `explain('queryPlanner')` answer, or null when it holds none this reads. */
export function planOfExplained(explained: Record<string, unknown>): QueryPlan | null {
  const planner = explained.queryPlanner;
  if (!isStage(planner)) return null;
  if (isStage(planner.winningPlan)) return mongoPlan(planner.winningPlan);
  if (isStage(planner.Plan)) return ferretPlan(planner.Plan);
  return null;
}
