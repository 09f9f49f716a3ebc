import { describeCliConformance } from './conformance';
import { PINNED_CLIS } from './pinned-clis';

describeCliConformance(PINNED_CLIS['claude-code']!, { signInWhenEmpty: 'signed-out' });
