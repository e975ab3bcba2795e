#include "test_pki.h"

#include <filesystem>
#include <fstream>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdexcept>

namespace gantry::testing {

namespace {

void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string("test PKI: ") + what + " failed");
}

EVP_PKEY* newKey() {
    EVP_PKEY* key = EVP_EC_gen("P-256");
    check(key != nullptr, "EC key generation");
    return key;
}

std::string pemOf(X509* cert) {
    BIO* bio = BIO_new(BIO_s_mem());
    check(PEM_write_bio_X509(bio, cert) == 1, "PEM_write_bio_X509");
    char* data = nullptr;
    long len = BIO_get_mem_data(bio, &data);
    std::string pem(data, size_t(len));
    BIO_free(bio);
    return pem;
}

std::string pemOf(EVP_PKEY* key) {
    BIO* bio = BIO_new(BIO_s_mem());
    check(PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr) == 1,
          "PEM_write_bio_PrivateKey");
    char* data = nullptr;
    long len = BIO_get_mem_data(bio, &data);
    std::string pem(data, size_t(len));
    BIO_free(bio);
    return pem;
}

void addExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    check(ext != nullptr, "X509V3_EXT_conf_nid");
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
}

long nextSerial() {
    static long serial = 1000;
    return ++serial;
}

} // namespace

struct TestPki::Authority {
    EVP_PKEY* key = nullptr;
    X509* cert = nullptr;
    ~Authority() {
        X509_free(cert);
        EVP_PKEY_free(key);
    }
};

static TestPki::Authority* makeAuthority(const std::string& cn) {
    auto* a = new TestPki::Authority;
    a->key = newKey();
    a->cert = X509_new();
    X509_set_version(a->cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(a->cert), nextSerial());
    X509_gmtime_adj(X509_getm_notBefore(a->cert), -86400);
    X509_gmtime_adj(X509_getm_notAfter(a->cert), 86400L * 3650);
    X509_NAME* name = X509_get_subject_name(a->cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn.c_str()),
                               -1, -1, 0);
    X509_set_issuer_name(a->cert, name);
    X509_set_pubkey(a->cert, a->key);
    addExtension(a->cert, a->cert, NID_basic_constraints, "critical,CA:TRUE");
    addExtension(a->cert, a->cert, NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
    addExtension(a->cert, a->cert, NID_subject_key_identifier, "hash");
    check(X509_sign(a->cert, a->key, EVP_sha256()) > 0, "signing the CA");
    return a;
}

TestPki::TestPki() {
    caAuthority_ = makeAuthority("gantry-test-cluster-ca");
    otherAuthority_ = makeAuthority("someone-elses-ca");
    ca_ = Pem{pemOf(caAuthority_->cert), pemOf(caAuthority_->key)};
    otherCa_ = Pem{pemOf(otherAuthority_->cert), pemOf(otherAuthority_->key)};
    std::vector<std::string> names{"localhost", "kubernetes", "kubernetes.default.svc"};
    std::vector<std::string> ips{"127.0.0.1", "::1"};
    server_ = issue(*caAuthority_, "kube-apiserver", {}, names, ips, true, -1, 3650);
    wrongName_ = issue(*caAuthority_, "api.other.example", {}, {"api.other.example"}, {}, true, -1, 3650);
    expired_ = issue(*caAuthority_, "kube-apiserver", {}, names, ips, true, -30, -1);
}

TestPki::~TestPki() {
    delete caAuthority_;
    delete otherAuthority_;
}

Pem TestPki::client(const std::string& user, const std::vector<std::string>& groups, bool trusted) const {
    return issue(trusted ? *caAuthority_ : *otherAuthority_, user, groups, {}, {}, false, -1, 3650);
}

Pem TestPki::issue(const Authority& issuer, const std::string& cn, const std::vector<std::string>& orgs,
                   const std::vector<std::string>& dnsNames, const std::vector<std::string>& ips,
                   bool serverAuth, long notBeforeDays, long notAfterDays) const {
    EVP_PKEY* key = newKey();
    X509* cert = X509_new();
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), nextSerial());
    X509_gmtime_adj(X509_getm_notBefore(cert), notBeforeDays * 86400L);
    X509_gmtime_adj(X509_getm_notAfter(cert), notAfterDays * 86400L);
    X509_NAME* name = X509_get_subject_name(cert);
    for (const auto& o : orgs)
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(o.c_str()),
                                   -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn.c_str()),
                               -1, -1, 0);
    X509_set_issuer_name(cert, X509_get_subject_name(issuer.cert));
    X509_set_pubkey(cert, key);
    addExtension(cert, issuer.cert, NID_basic_constraints, "critical,CA:FALSE");
    addExtension(cert, issuer.cert, NID_key_usage, "critical,digitalSignature,keyEncipherment");
    addExtension(cert, issuer.cert, NID_ext_key_usage, serverAuth ? "serverAuth" : "clientAuth");
    addExtension(cert, issuer.cert, NID_authority_key_identifier, "keyid:always");
    std::vector<std::string> entries;
    for (const auto& d : dnsNames) entries.push_back("DNS:" + d);
    for (const auto& ip : ips) entries.push_back("IP:" + ip);
    std::string san;
    for (const auto& e : entries) {
        if (!san.empty()) san += ',';
        san += e;
    }
    if (!san.empty()) addExtension(cert, issuer.cert, NID_subject_alt_name, san);
    check(X509_sign(cert, issuer.key, EVP_sha256()) > 0, "signing a certificate");
    Pem pem{pemOf(cert), pemOf(key)};
    X509_free(cert);
    EVP_PKEY_free(key);
    return pem;
}

std::string writeTextFile(const std::string& path, const std::string& text) {
    std::filesystem::path p(path);
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path);
    return path;
}

} // namespace gantry::testing
