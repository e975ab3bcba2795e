#pragma once
// Several Qt Test classes in one executable per area: each .cpp registers its class with
// GANTRY_TEST(Class); test_main.cpp runs them all and fails if any fails.
#include <QObject>
#include <functional>
#include <utility>
#include <vector>

namespace gantry::test {

using Factory = std::function<QObject*()>;

inline std::vector<std::pair<const char*, Factory>>& registry() {
    static std::vector<std::pair<const char*, Factory>> classes;
    return classes;
}

struct Registration {
    Registration(const char* name, Factory factory) { registry().emplace_back(name, std::move(factory)); }
};

} // namespace gantry::test

#define GANTRY_TEST(Class)                                                                                   \
    static const gantry::test::Registration gantryRegistration##Class(#Class, [] { return new Class; });
