import { hasErrorMarker } from '@bullswarm/pacing';
import { MeterError } from './meter-error';

const templateErrorKey = 'bullswarm.error.MeterTemplateError';
const templateErrorMarker = Symbol.for(templateErrorKey);

/** A meter source string uses a template variable that does not exist (or is malformed). */
export class MeterTemplateError extends MeterError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for in isInstance
  private readonly [templateErrorMarker] = true;
  /** The whole template string. */
  readonly template: string;
  /** The variable as written between the braces, e.g. `acount`. */
  readonly variable: string;

  constructor(options: { readonly template: string; readonly variable: string }) {
    super({
      name: 'MeterTemplateError',
      message:
        `meter source "${options.template}": unknown template variable {{${options.variable}}}; ` +
        'valid: {{account}}, {{home}}, {{userHome}}, {{env.NAME}}',
    });
    this.template = options.template;
    this.variable = options.variable;
  }

  static override isInstance(value: unknown): value is MeterTemplateError {
    return hasErrorMarker(value, templateErrorKey);
  }
}
