// `node --import ./scripts/module-count/register.mjs …` lists every module the process loads
// (see hooks.mjs).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
