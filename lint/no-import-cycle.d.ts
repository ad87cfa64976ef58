import type { Rule } from 'eslint';

declare const noImportCycle: Rule.RuleModule;
export default noImportCycle;
