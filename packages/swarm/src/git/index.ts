export { readWorkState, type WorkState } from './read-work-state';
export { checkoutRoot, findRepositoryRoot, repositoryRoot } from './repository-root';
export { type GitResult, git, type TryGitOptions, tryGit } from './run-git';
export { stripRemoteCredentials } from './strip-remote-credentials';
