import { describeCliConformance } from './conformance';
import { PINNED_CLIS } from './pinned-clis';

// Free models run without a sign-in: doctor cannot tell, and says unknown.
describeCliConformance(PINNED_CLIS.opencode!, { signInWhenEmpty: 'unknown' });
