// gantry-loopback-apiserver: the tests' API server as a program, filled with a synthetic GPU cluster.
//   gantry-loopback-apiserver --dir DIR [--nodes N] [--pods M] [--no-gzip]
// Writes DIR/kubeconfig (client-certificate auth, the cluster CA) and prints "ready PORT" on stdout;
// serves until stdin closes or it is killed.
#include "api_server.h"
#include "cluster_fixture.h"
#include "test_pki.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

using namespace gantry::testing;

int main(int argc, char** argv) {
    std::string dir;
    int nodes = 5000, pods = 100000;
    bool gzip = true;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--nodes" && i + 1 < argc)
            nodes = std::atoi(argv[++i]);
        else if (a == "--pods" && i + 1 < argc)
            pods = std::atoi(argv[++i]);
        else if (a == "--no-gzip")
            gzip = false;
        else {
            std::cerr << "usage: gantry-loopback-apiserver --dir DIR [--nodes N] [--pods M] [--no-gzip]\n";
            return 1;
        }
    }
    if (dir.empty()) {
        std::cerr << "gantry-loopback-apiserver: --dir is required\n";
        return 1;
    }
    TestPki pki;
    LoopbackApiServer server({pki.server().cert, pki.server().key, pki.ca().cert});
    server.setGzip(gzip);
    populateCluster(server, nodes, pods, true);
    Pem client = pki.client("bench-admin", {"system:masters"});
    std::string ca = writeTextFile(dir + "/ca.crt", pki.ca().cert);
    std::string cert = writeTextFile(dir + "/client.crt", client.cert);
    std::string key = writeTextFile(dir + "/client.key", client.key);
    writeTextFile(
        dir + "/kubeconfig",
        kubeconfigYaml(server.url(), ca, {"client-certificate: " + cert, "client-key: " + key}, "loopback"));
    std::cout << "ready " << server.port() << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
    }
    return 0;
}
