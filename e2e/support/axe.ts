import fs from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe-core's current release (the root devDependency), run through @axe-core/playwright 4.13: the wrapper's 4.14
 * needs Node 22, the project runs on Node 20, and the wrapper takes the engine's source as it is given.
 */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const axeBuilder = (page: Page) => new AxeBuilder({ page, axeSource });
