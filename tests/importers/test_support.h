#pragma once
// Helpers shared by the importer tests.
#include "input_error.h"
#include "model/cluster.h"

#include <QString>
#include <QStringList>
#include <algorithm>
#include <functional>
#include <string>

namespace gantry::test {

inline std::string dataPath(const std::string& relative) {
    return std::string(GANTRY_TEST_DATA) + "/" + relative;
}

inline QString joined(const Diagnostics& d) {
    QStringList out;
    for (const auto& x : d) out << QString::fromStdString(x.str());
    return out.join('\n');
}

// The located message of the InputError `f` throws, or "no error".
inline QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return QString::fromStdString(e.diagnostic().str());
    }
    return "no error";
}

template <class T, class Pred> const T* findIf(const std::vector<T>& v, Pred p) {
    auto it = std::find_if(v.begin(), v.end(), p);
    return it == v.end() ? nullptr : &*it;
}

inline const Pod* findPod(const Cluster& c, const std::string& ns, const std::string& name) {
    return findIf(c.pods, [&](const Pod& p) { return p.ns == ns && p.name == name; });
}

} // namespace gantry::test
