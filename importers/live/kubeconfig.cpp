#include "live/kubeconfig.h"

#include "input_error.h"
#include "live/base64.h"
#include "yaml/yaml_reader.h"
#include "yaml/yaml_source.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace gantry::live {

namespace fs = std::filesystem;

namespace {

struct FileContext {
    std::string path;
    std::string dir; // absolute folder of the file, for relative paths
};

std::string decoded(const Y& map, const char* key) {
    std::string text = map[key].str();
    if (text.empty()) return {};
    auto bytes = base64Decode(text);
    if (!bytes) map[key].fail("not valid base64");
    return *bytes;
}

// kubectl resolves relative paths against the folder of the file that holds them.
std::string resolved(const std::string& path, const FileContext& f) {
    if (path.empty() || fs::path(path).is_absolute()) return path;
    return (fs::path(f.dir) / path).lexically_normal().string();
}

// The named entries of clusters / users / contexts. Within one file the first entry of a name wins,
// as across files.
template <typename Fn> void forEachNamed(const Y& root, const char* list, const char* inner, Fn fn) {
    for (const Y& entry : root[list].items()) {
        std::string name = entry["name"].str();
        if (name.empty()) entry.fail(std::string("an entry of '") + list + "' has no name");
        Y body = entry[inner];
        if (body.present() && !body.isMap()) body.fail("expected a mapping");
        fn(name, body, entry.where());
    }
}

ExecConfig parseExec(const Y& node, const FileContext& f) {
    if (!node.isMap()) node.fail("expected a mapping");
    ExecConfig exec;
    exec.source = node.where();
    exec.command = node["command"].str();
    // A command with a slash is a path relative to the kubeconfig; a bare name is looked up in PATH.
    if (exec.command.find('/') != std::string::npos) exec.command = resolved(exec.command, f);
    exec.apiVersion = node["apiVersion"].str();
    exec.installHint = node["installHint"].str();
    exec.interactiveMode = node["interactiveMode"].str();
    exec.provideClusterInfo = node["provideClusterInfo"].boolean(false);
    exec.args = node["args"].strings();
    for (const Y& e : node["env"].items()) {
        std::string name = e["name"].str();
        if (name.empty()) e.fail("an 'env' entry of the exec plugin has no name");
        exec.env.emplace_back(name, e["value"].str());
    }
    if (exec.command.empty()) throw InputError(exec.source, "the exec plugin has no 'command'");
    if (exec.apiVersion.empty()) throw InputError(exec.source, "the exec plugin has no 'apiVersion'");
    if (exec.apiVersion != "client.authentication.k8s.io/v1" &&
        exec.apiVersion != "client.authentication.k8s.io/v1beta1")
        node["apiVersion"].fail("exec plugin apiVersion '" + exec.apiVersion +
                                "' is not supported (use client.authentication.k8s.io/v1 or v1beta1)");
    // client-go defaults interactiveMode only for v1beta1; v1 plugins must say.
    if (exec.interactiveMode.empty()) {
        if (exec.apiVersion.ends_with("/v1"))
            throw InputError(exec.source,
                             "the exec plugin must set 'interactiveMode' (Never, IfAvailable or Always)");
        exec.interactiveMode = "IfAvailable";
    }
    if (exec.interactiveMode != "Never" && exec.interactiveMode != "IfAvailable" &&
        exec.interactiveMode != "Always")
        node["interactiveMode"].fail("invalid interactiveMode '" + exec.interactiveMode +
                                     "' (Never, IfAvailable or Always)");
    return exec;
}

std::string readWholeFile(const std::string& path, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = std::strerror(errno);
        return {};
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
        s.pop_back();
    size_t start = 0;
    while (start < s.size() && (s[start] == ' ' || s[start] == '\t')) ++start;
    return s.substr(start);
}

std::string fileRef(const std::string& path, const SourceRef& where, const char* what) {
    std::string error;
    std::string data = readWholeFile(path, &error);
    if (!error.empty())
        throw InputError(where, std::string("cannot read ") + what + " " + path + ": " + error);
    return data;
}

std::string joined(const std::vector<std::string>& items, const char* sep = ", ") {
    std::string out;
    for (const auto& s : items) {
        if (!out.empty()) out += sep;
        out += s;
    }
    return out;
}

template <typename Map> std::string namesOf(const Map& map) {
    std::vector<std::string> names;
    for (const auto& [name, value] : map) names.push_back(name);
    return names.empty() ? std::string("none") : joined(names);
}

} // namespace

KubeConfig parseKubeConfigFile(const std::string& path) {
    FileContext f{path, fs::absolute(fs::path(path)).parent_path().string()};
    KubeConfig config;
    config.files.push_back(path);
    auto docs = loadDocuments(readTextFile(path), path);
    if (docs.empty()) return config; // an empty file is an empty config
    Y root = readerFor(docs.front(), nullptr, nullptr);
    if (!root.present()) return config;
    if (!root.isMap()) root.fail("a kubeconfig must be a mapping (apiVersion: v1, kind: Config)");
    std::string kind = root["kind"].str();
    if (!kind.empty() && kind != "Config")
        root["kind"].fail("kind is '" + kind + "', a kubeconfig has kind Config");

    config.currentContext = root["current-context"].str();
    forEachNamed(root, "clusters", "cluster", [&](const std::string& name, const Y& c, SourceRef where) {
        if (config.clusters.count(name)) return;
        KubeCluster cluster;
        cluster.source = where;
        cluster.server = c["server"].str();
        cluster.certificateAuthority = resolved(c["certificate-authority"].str(), f);
        cluster.certificateAuthorityData = decoded(c, "certificate-authority-data");
        cluster.insecureSkipTlsVerify = c["insecure-skip-tls-verify"].boolean(false);
        cluster.tlsServerName = c["tls-server-name"].str();
        cluster.proxyUrl = c["proxy-url"].str();
        cluster.disableCompression = c["disable-compression"].boolean(false);
        config.clusters.emplace(name, std::move(cluster));
    });
    forEachNamed(root, "users", "user", [&](const std::string& name, const Y& u, SourceRef where) {
        if (config.users.count(name)) return;
        KubeUser user;
        user.source = where;
        user.token = u["token"].str();
        user.tokenFile = resolved(u["tokenFile"].str(), f);
        user.clientCertificate = resolved(u["client-certificate"].str(), f);
        user.clientKey = resolved(u["client-key"].str(), f);
        user.clientCertificateData = decoded(u, "client-certificate-data");
        user.clientKeyData = decoded(u, "client-key-data");
        user.username = u["username"].str();
        user.password = u["password"].str();
        if (u["exec"].present()) user.exec = parseExec(u["exec"], f);
        if (Y p = u["auth-provider"]; p.present()) {
            user.authProvider = p["name"].str();
            for (const auto& [key, value] : p["config"].entries())
                if (value.isScalar()) user.authProviderConfig[key] = value.str();
        }
        config.users.emplace(name, std::move(user));
    });
    forEachNamed(root, "contexts", "context", [&](const std::string& name, const Y& c, SourceRef where) {
        if (config.contexts.count(name)) return;
        KubeContext context;
        context.source = where;
        context.cluster = c["cluster"].str();
        context.user = c["user"].str();
        context.ns = c["namespace"].str();
        config.contexts.emplace(name, std::move(context));
    });
    return config;
}

KubeConfig mergeKubeConfigs(const std::vector<KubeConfig>& configs) {
    KubeConfig merged;
    for (const auto& c : configs) {
        // map::insert keeps an existing key: the first file to define a name wins, whole.
        merged.clusters.insert(c.clusters.begin(), c.clusters.end());
        merged.users.insert(c.users.begin(), c.users.end());
        merged.contexts.insert(c.contexts.begin(), c.contexts.end());
        if (merged.currentContext.empty()) merged.currentContext = c.currentContext;
        merged.files.insert(merged.files.end(), c.files.begin(), c.files.end());
        merged.missing.insert(merged.missing.end(), c.missing.begin(), c.missing.end());
    }
    return merged;
}

Environment Environment::fromProcess() {
    Environment env;
    if (const char* v = std::getenv("KUBECONFIG")) env.kubeconfig = v;
    if (const char* v = std::getenv("HOME")) env.home = v;
    if (const char* v = std::getenv("KUBERNETES_SERVICE_HOST")) env.serviceHost = v;
    if (const char* v = std::getenv("KUBERNETES_SERVICE_PORT")) env.servicePort = v;
    return env;
}

std::vector<std::string> kubeconfigFiles(const std::string& explicitPath, const Environment& env) {
    if (!explicitPath.empty()) return {explicitPath};
    std::vector<std::string> files;
    if (env.kubeconfig && !env.kubeconfig->empty()) {
        std::set<std::string> seen;
        std::stringstream list(*env.kubeconfig);
        std::string item;
        while (std::getline(list, item, ':'))
            if (!item.empty() && seen.insert(item).second) files.push_back(item);
        return files;
    }
    if (!env.home.empty()) files.push_back((fs::path(env.home) / ".kube" / "config").string());
    return files;
}

std::string Connection::describeUser() const {
    std::string who = user.empty() ? std::string("anonymous user") : "user '" + user + "'";
    if (!context.empty()) who += " of context '" + context + "'";
    return who;
}

Connection connectionForContext(const KubeConfig& config, const std::string& requested) {
    SourceRef where{joined(config.files, ":"), 0, 0, 0};
    std::string name = requested.empty() ? config.currentContext : requested;
    if (name.empty())
        throw InputError(
            where, "no current-context is set; pass --context (contexts: " + namesOf(config.contexts) + ")");
    auto ctx = config.contexts.find(name);
    if (ctx == config.contexts.end())
        throw InputError(where, "context '" + name +
                                    "' is not defined (contexts: " + namesOf(config.contexts) + ")");
    const KubeContext& context = ctx->second;

    Connection conn;
    conn.origin = "kubeconfig " + where.file;
    conn.context = name;
    conn.cluster = context.cluster;
    conn.user = context.user;

    if (context.cluster.empty()) throw InputError(context.source, "context '" + name + "' names no cluster");
    auto cl = config.clusters.find(context.cluster);
    if (cl == config.clusters.end())
        throw InputError(context.source,
                         "cluster '" + context.cluster + "' of context '" + name + "' is not defined");
    const KubeCluster& cluster = cl->second;
    if (cluster.server.empty())
        throw InputError(cluster.source, "cluster '" + context.cluster + "' has no server");
    conn.server = cluster.server;
    if (conn.server.find("://") == std::string::npos) conn.server = "https://" + conn.server;
    if (!conn.server.starts_with("https://") && !conn.server.starts_with("http://"))
        throw InputError(cluster.source, "server '" + cluster.server + "' of cluster '" + context.cluster +
                                             "' is not an http(s) URL");
    while (conn.server.size() > 8 && conn.server.back() == '/') conn.server.pop_back();

    if (!cluster.certificateAuthority.empty() && !cluster.certificateAuthorityData.empty())
        throw InputError(cluster.source,
                         "cluster '" + context.cluster +
                             "' sets both certificate-authority and certificate-authority-data");
    if (!cluster.certificateAuthorityData.empty()) {
        conn.caPem = cluster.certificateAuthorityData;
        conn.caOrigin = "certificate-authority-data of cluster '" + context.cluster + "'";
    } else if (!cluster.certificateAuthority.empty()) {
        conn.caPem = fileRef(cluster.certificateAuthority, cluster.source, "certificate-authority");
        conn.caOrigin = "certificate-authority " + cluster.certificateAuthority;
    }
    conn.insecureSkipTlsVerify = cluster.insecureSkipTlsVerify;
    if (conn.insecureSkipTlsVerify) {
        if (!conn.caPem.empty())
            throw InputError(cluster.source,
                             "cluster '" + context.cluster +
                                 "' sets insecure-skip-tls-verify together with a certificate "
                                 "authority; kubectl refuses this too");
        conn.warnings.push_back("TLS verification is off for cluster '" + context.cluster +
                                "' (insecure-skip-tls-verify): the server's identity is not checked");
    }
    conn.tlsServerName = cluster.tlsServerName;
    conn.proxyUrl = cluster.proxyUrl;
    if (!conn.proxyUrl.empty() && !conn.proxyUrl.starts_with("http://") &&
        !conn.proxyUrl.starts_with("https://") && !conn.proxyUrl.starts_with("socks5://"))
        throw InputError(cluster.source, "proxy-url '" + conn.proxyUrl + "' of cluster '" + context.cluster +
                                             "' must be an http, https or socks5 URL");
    conn.disableCompression = cluster.disableCompression;

    if (context.user.empty()) return conn; // anonymous, as kubectl allows
    auto us = config.users.find(context.user);
    if (us == config.users.end())
        throw InputError(context.source,
                         "user '" + context.user + "' of context '" + name + "' is not defined");
    const KubeUser& user = us->second;
    if (!user.token.empty()) {
        conn.token = user.token;
    } else if (!user.tokenFile.empty()) {
        conn.token = trimmed(fileRef(user.tokenFile, user.source, "tokenFile"));
        if (conn.token.empty()) throw InputError(user.source, "tokenFile " + user.tokenFile + " is empty");
    }
    if (!user.username.empty() || !user.password.empty()) {
        if (!user.token.empty())
            throw InputError(user.source,
                             "user '" + context.user +
                                 "' has both a token and a username/password; only one is allowed");
        conn.username = user.username;
        conn.password = user.password;
    }
    if (!user.clientCertificate.empty() || !user.clientCertificateData.empty()) {
        if (!user.clientCertificate.empty() && !user.clientCertificateData.empty())
            throw InputError(user.source, "user '" + context.user +
                                              "' sets both client-certificate and client-certificate-data");
        if (!user.clientKey.empty() && !user.clientKeyData.empty())
            throw InputError(user.source,
                             "user '" + context.user + "' sets both client-key and client-key-data");
        if (user.clientKey.empty() && user.clientKeyData.empty())
            throw InputError(user.source,
                             "user '" + context.user + "' has a client certificate but no client key");
        conn.clientCertPem = user.clientCertificateData.empty()
                                 ? fileRef(user.clientCertificate, user.source, "client-certificate")
                                 : user.clientCertificateData;
        conn.clientKeyPem = user.clientKeyData.empty() ? fileRef(user.clientKey, user.source, "client-key")
                                                       : user.clientKeyData;
    } else if (!user.clientKey.empty() || !user.clientKeyData.empty()) {
        throw InputError(user.source,
                         "user '" + context.user + "' has a client key but no client certificate");
    }
    conn.exec = user.exec;
    if (!user.authProvider.empty()) {
        if (user.exec)
            throw InputError(user.source, "user '" + context.user + "' sets both auth-provider and exec");
        auto idToken = user.authProviderConfig.find("id-token");
        if (user.authProvider == "oidc" && idToken != user.authProviderConfig.end() && conn.token.empty()) {
            conn.token = idToken->second; // no refresh: an expired id-token gives a clear 401
        } else {
            throw InputError(user.source,
                             "auth-provider '" + user.authProvider + "' of user '" + context.user +
                                 "' is not supported (kubectl removed it too); configure an exec "
                                 "credential plugin such as gke-gcloud-auth-plugin or kubelogin");
        }
    }
    if (conn.server.starts_with("http://") &&
        (!conn.token.empty() || !conn.username.empty() || conn.exec || !conn.clientCertPem.empty())) {
        // kubectl only sends credentials over TLS.
        conn.warnings.push_back("server " + conn.server + " is plain http: credentials are not sent");
        conn.token.clear();
        conn.username.clear();
        conn.password.clear();
        conn.clientCertPem.clear();
        conn.clientKeyPem.clear();
        conn.exec.reset();
    }
    return conn;
}

std::optional<Connection> inClusterConnection(const Environment& env) {
    if (!env.serviceHost || !env.servicePort || env.serviceHost->empty() || env.servicePort->empty())
        return std::nullopt;
    std::string tokenPath = (fs::path(env.serviceAccountDir) / "token").string();
    struct stat st {};
    if (::stat(tokenPath.c_str(), &st) != 0) return std::nullopt;
    Connection conn;
    conn.origin = "in-cluster service account (" + env.serviceAccountDir + ")";
    conn.user = "serviceaccount";
    std::string error;
    std::string ns = trimmed(readWholeFile((fs::path(env.serviceAccountDir) / "namespace").string(), &error));
    if (error.empty() && !ns.empty()) conn.user = "system:serviceaccount:" + ns;
    std::string host = *env.serviceHost;
    if (host.find(':') != std::string::npos) host = "[" + host + "]"; // IPv6
    conn.server = "https://" + host + ":" + *env.servicePort;
    SourceRef where{tokenPath, 0, 0, 0};
    conn.token = trimmed(fileRef(tokenPath, where, "service-account token"));
    std::string caPath = (fs::path(env.serviceAccountDir) / "ca.crt").string();
    conn.caPem = fileRef(caPath, SourceRef{caPath, 0, 0, 0}, "service-account CA");
    conn.caOrigin = caPath;
    return conn;
}

Connection resolveConnection(const ConnectRequest& request, const Environment& env) {
    auto files = kubeconfigFiles(request.kubeconfig, env);
    std::vector<KubeConfig> configs;
    std::vector<std::string> missing;
    for (const auto& file : files) {
        struct stat st {};
        if (::stat(file.c_str(), &st) != 0 && errno == ENOENT && request.kubeconfig.empty()) {
            missing.push_back(file); // kubectl skips missing files of KUBECONFIG and the default
            continue;
        }
        configs.push_back(parseKubeConfigFile(file));
    }
    KubeConfig merged = mergeKubeConfigs(configs);
    merged.missing = missing;
    if (merged.empty() && request.context.empty()) {
        if (auto conn = inClusterConnection(env)) return *conn;
        std::string looked = files.empty() ? std::string("no HOME and no KUBECONFIG") : joined(files);
        throw InputError(SourceRef{joined(files, ":"), 0, 0, 0},
                         "no cluster configured (looked at " + looked +
                             "); pass --kubeconfig FILE or set KUBECONFIG");
    }
    if (merged.files.empty()) merged.files = files;
    Connection conn = connectionForContext(merged, request.context);
    if (!missing.empty() && env.kubeconfig && !env.kubeconfig->empty())
        conn.warnings.push_back("KUBECONFIG names files that do not exist: " + joined(missing));
    return conn;
}

} // namespace gantry::live
