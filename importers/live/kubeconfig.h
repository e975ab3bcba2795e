#pragma once
// kubeconfig as kubectl reads it: which files (--kubeconfig, else every file of KUBECONFIG merged,
// else ~/.kube/config), how they merge (the first file to define a name wins; the first file to set
// current-context wins), relative paths resolved against the file that holds them, and the same
// checks kubectl makes before it connects. Also the in-cluster service-account configuration.
// Every mistake in a file is an InputError at file:line:column.
#include "model/diagnostic.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gantry::live {

// users[].user.exec: a client-go credential plugin (client.authentication.k8s.io ExecCredential).
struct ExecConfig {
    std::string command; // absolute when the kubeconfig gave a path, else looked up in PATH
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env;
    std::string apiVersion;      // client.authentication.k8s.io/v1 or v1beta1
    std::string installHint;     // shown when the command is missing
    std::string interactiveMode; // Never | IfAvailable | Always
    bool provideClusterInfo = false;
    SourceRef source;
};

struct KubeCluster {
    std::string server;
    std::string certificateAuthority;     // file
    std::string certificateAuthorityData; // decoded PEM
    bool insecureSkipTlsVerify = false;
    std::string tlsServerName;
    std::string proxyUrl;
    bool disableCompression = false;
    SourceRef source;
};

struct KubeUser {
    std::string token;
    std::string tokenFile;
    std::string clientCertificate, clientKey;         // files
    std::string clientCertificateData, clientKeyData; // decoded PEM
    std::string username, password;
    std::optional<ExecConfig> exec;
    std::string authProvider; // name of a legacy auth-provider, when one is set
    std::map<std::string, std::string> authProviderConfig;
    SourceRef source;
};

struct KubeContext {
    std::string cluster;
    std::string user;
    std::string ns;
    SourceRef source;
};

struct KubeConfig {
    std::map<std::string, KubeCluster> clusters;
    std::map<std::string, KubeUser> users;
    std::map<std::string, KubeContext> contexts;
    std::string currentContext;
    std::vector<std::string> files;   // files read, in precedence order
    std::vector<std::string> missing; // files of KUBECONFIG that do not exist (kubectl skips them)
    bool empty() const {
        return clusters.empty() && users.empty() && contexts.empty() && currentContext.empty();
    }
};

// One kubeconfig file; relative paths inside it are made absolute against its folder.
KubeConfig parseKubeConfigFile(const std::string& path);
// kubectl's merge of several files, given in precedence order.
KubeConfig mergeKubeConfigs(const std::vector<KubeConfig>& configs);

// What the process environment contributes; tests build their own.
struct Environment {
    std::optional<std::string> kubeconfig;               // KUBECONFIG
    std::string home;                                    // HOME
    std::optional<std::string> serviceHost, servicePort; // KUBERNETES_SERVICE_HOST / _PORT
    std::string serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";
    static Environment fromProcess();
};

// The files kubectl would read, in precedence order.
std::vector<std::string> kubeconfigFiles(const std::string& explicitPath, const Environment& env);

// Everything needed to talk to one API server as one user.
struct Connection {
    std::string origin;                 // "kubeconfig FILE[:FILE...]" or "in-cluster service account"
    std::string context, cluster, user; // as the kubeconfig names them
    std::string server;                 // https://host:port[/path]
    std::string caPem;                  // trusted CAs; empty = the system's trust store
    std::string caOrigin;               // where caPem came from, for messages
    bool insecureSkipTlsVerify = false;
    std::string tlsServerName;
    std::string proxyUrl;
    bool disableCompression = false;
    // Credentials: at most one of token and username/password; a client certificate may come with
    // either; an exec plugin supplies a token or a certificate at run time.
    std::string token;
    std::string username, password;
    std::string clientCertPem, clientKeyPem;
    std::optional<ExecConfig> exec;
    std::vector<std::string> warnings;

    // "user 'alice' of context 'prod'" (or the service account when in-cluster)
    std::string describeUser() const;
};

// The connection of `context` (empty = current-context) in a loaded configuration.
Connection connectionForContext(const KubeConfig& config, const std::string& context);
// The pod's own service account, when running inside a cluster; nullopt when not possible.
std::optional<Connection> inClusterConnection(const Environment& env);

struct ConnectRequest {
    std::string kubeconfig; // --kubeconfig; empty = KUBECONFIG or ~/.kube/config
    std::string context;    // --context; empty = current-context
};

// kubectl's whole decision: explicit file, else merged files, else in-cluster when nothing is
// configured and the service-account environment is there.
Connection resolveConnection(const ConnectRequest& request, const Environment& env);

} // namespace gantry::live
