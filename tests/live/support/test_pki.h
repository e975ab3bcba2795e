#pragma once
// Test certificates made at test time with OpenSSL (EC P-256, so it takes milliseconds): a cluster CA,
// a second CA nobody trusts, the API server's certificate for 127.0.0.1 and localhost, one for a
// wrong name, an expired one, and client certificates (CN = user, O = groups) as kubeadm issues them.
#include <string>
#include <vector>

namespace gantry::testing {

struct Pem {
    std::string cert;
    std::string key;
};

class TestPki {
  public:
    TestPki();
    ~TestPki();
    TestPki(const TestPki&) = delete;
    TestPki& operator=(const TestPki&) = delete;

    const Pem& ca() const { return ca_; }
    const Pem& otherCa() const { return otherCa_; }
    const Pem& server() const { return server_; }       // SAN 127.0.0.1, ::1, localhost, kubernetes
    const Pem& wrongName() const { return wrongName_; } // SAN api.other.example only
    const Pem& expired() const { return expired_; }     // right names, expired yesterday

    // A client certificate signed by the cluster CA (or by the untrusted one).
    Pem client(const std::string& user, const std::vector<std::string>& groups, bool trusted = true) const;

    struct Authority; // a CA's key and certificate

  private:
    Pem issue(const Authority& issuer, const std::string& cn, const std::vector<std::string>& orgs,
              const std::vector<std::string>& dnsNames, const std::vector<std::string>& ips, bool serverAuth,
              long notBeforeDays, long notAfterDays) const;

    Authority* caAuthority_ = nullptr;
    Authority* otherAuthority_ = nullptr;
    Pem ca_, otherCa_, server_, wrongName_, expired_;
};

// Writes text to a file (creating folders); returns the path.
std::string writeTextFile(const std::string& path, const std::string& text);

} // namespace gantry::testing
