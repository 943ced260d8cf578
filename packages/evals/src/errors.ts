/**
 * Errors of the eval as written, not of the model.
 */

/**
 * The eval cannot run as written (an answer of the wrong shape, an oracle that cannot make an
 * input): a trial that meets it is a problem of the run (`kind: 'setup'`) that fails the run, not a
 * low score of the model. A stand-in model of your own may throw it too.
 */
export class EvalSetupError extends Error {
  override name = 'EvalSetupError';
}
