// kubeconfig files, and choosing the connection of their current context from them.
#include "fuzz_target.h"
#include "input_error.h"
#include "live/kubeconfig.h"
#include "live/live_error.h"

#include <cstdio>
#include <fstream>
#include <unistd.h>

GANTRY_FUZZ_TARGET(text) {
    // The reader takes a path (relative paths in the file resolve against its folder).
    static const std::string path = "/tmp/gantry-fuzz-kubeconfig-" + std::to_string(::getpid());
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << text;
    }
    try {
        gantry::live::KubeConfig config = gantry::live::parseKubeConfigFile(path);
        gantry::live::connectionForContext(config, "");
    } catch (const gantry::InputError&) {
    } catch (const gantry::live::LiveError&) {
    }
    std::remove(path.c_str());
}
