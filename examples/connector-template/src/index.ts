import { createTemplate } from './create-template';

export { createTemplate, type TemplateSettings } from './create-template';
export { createTemplateOutputParser } from './template-output-parser';

/** The template connector with default settings. */
export const template = createTemplate();

/** bullswarm imports a configured connector package and unwraps this default export. */
export default template;
