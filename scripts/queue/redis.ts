// The stages that start Redis from here (scripts/renewal, scripts/registry) find it in scripts/lib.
export * from '../lib/redis';
