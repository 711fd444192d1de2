// The stages that import execution records from here (scripts/renewal) find them in scripts/lib.
export * from '../lib/executions';
