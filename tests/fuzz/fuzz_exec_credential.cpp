// What a kubeconfig's exec credential plugin prints (an ExecCredential, or anything else).
#include "fuzz_target.h"
#include "live/exec_credential.h"
#include "live/live_error.h"

GANTRY_FUZZ_TARGET(text) {
    try {
        gantry::live::parseExecCredential(text, "client.authentication.k8s.io/v1", "exec plugin 'fuzz'");
    } catch (const gantry::live::LiveError&) {
    }
}
