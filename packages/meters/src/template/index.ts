export { accountOfPoolId, expandTemplate, type TemplateValues } from './expand-template';
