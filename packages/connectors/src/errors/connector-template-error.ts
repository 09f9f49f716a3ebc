import { BullswarmError, hasErrorMarker } from './bullswarm-error';

const errorKey = 'bullswarm.error.ConnectorTemplateError';
const marker = Symbol.for(errorKey);

/** A manifest template names a value the request does not have (e.g. `{{env.CODEX_HOME}}` unset). */
export class ConnectorTemplateError extends BullswarmError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for(key) in isInstance
  private readonly [marker] = true;
  readonly connectorId: string;
  /** The template string, e.g. `{{env.BULLSWARM_SIM_HOME}}/meter.json`. */
  readonly template: string;
  /** The variable that had no value, e.g. `env.BULLSWARM_SIM_HOME`. */
  readonly variable: string;

  constructor(options: { connectorId: string; template: string; variable: string; message: string }) {
    super({
      name: 'ConnectorTemplateError',
      fault: 'input',
      message: `connector "${options.connectorId}": template ${JSON.stringify(options.template)}: ${options.message}`,
    });
    this.connectorId = options.connectorId;
    this.template = options.template;
    this.variable = options.variable;
  }

  static override isInstance(value: unknown): value is ConnectorTemplateError {
    return hasErrorMarker(value, errorKey);
  }
}
