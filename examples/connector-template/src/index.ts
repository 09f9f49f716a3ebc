import { createTemplate } from './create-template';

export { createTemplate, type TemplateSettings } from './create-template';
export { createTemplateOutputParser } from './template-output-parser';

/** The connector with default settings. */
export const templateConnector = createTemplate();

/** bullswarm imports a configured connector package and unwraps this default export. */
export default templateConnector;
