#include "core/label_plan.h"

#include <QRegularExpression>
#include <regex>

namespace gantry::studio {

std::optional<std::vector<int>> nodesMatching(const Cluster& cluster, const QString& pattern,
                                              QString* error) {
    QString p = pattern.trimmed();
    QRegularExpression re;
    if (p.size() >= 2 && p.startsWith('/') && p.endsWith('/')) {
        re = QRegularExpression(QRegularExpression::anchoredPattern(p.mid(1, p.size() - 2)));
    } else {
        re = QRegularExpression(QRegularExpression::wildcardToRegularExpression(
            p.isEmpty() ? QStringLiteral("*") : p, QRegularExpression::UnanchoredWildcardConversion));
        re.setPattern(QRegularExpression::anchoredPattern(re.pattern()));
    }
    if (!re.isValid()) {
        if (error)
            *error = QObject::tr("Bad regular expression at offset %1: %2")
                         .arg(re.patternErrorOffset())
                         .arg(re.errorString());
        return std::nullopt;
    }
    std::vector<int> out;
    for (size_t i = 0; i < cluster.nodes.size(); ++i)
        if (re.match(QString::fromStdString(cluster.nodes[i].name)).hasMatch()) out.push_back(int(i));
    return out;
}

namespace {
QString fill(QString text, const QString& name, int value) {
    // {name} or {name:0W} (zero-padded to W digits)
    QRegularExpression re(QStringLiteral("\\{%1(?::0(\\d+))?\\}").arg(name));
    QRegularExpressionMatch m;
    while ((m = re.match(text)).hasMatch()) {
        int width = m.captured(1).isEmpty() ? 0 : m.captured(1).toInt();
        text.replace(m.capturedStart(), m.capturedLength(),
                     QStringLiteral("%1").arg(value, width, 10, QLatin1Char('0')));
    }
    return text;
}
} // namespace

std::string planValue(const LabelPlan& plan, size_t i) {
    int n = plan.firstNumber + (plan.nodesPerValue > 0 ? int(i) / plan.nodesPerValue : 0);
    return fill(fill(plan.valueTemplate, QStringLiteral("n"), n), QStringLiteral("i"), int(i)).toStdString();
}

std::vector<std::string> planValues(const LabelPlan& plan, size_t nodeCount) {
    std::vector<std::string> out;
    out.reserve(nodeCount);
    for (size_t i = 0; i < nodeCount; ++i) out.push_back(planValue(plan, i));
    return out;
}

bool isValidLabelValue(const std::string& value) {
    static const std::regex re("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$");
    return value.size() <= 63 && std::regex_match(value, re);
}

bool isValidLabelKey(const std::string& key) {
    static const std::regex name("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$");
    static const std::regex prefix("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
    auto slash = key.find('/');
    std::string n = slash == std::string::npos ? key : key.substr(slash + 1);
    if (n.empty() || n.size() > 63 || !std::regex_match(n, name)) return false;
    if (slash == std::string::npos) return true;
    std::string p = key.substr(0, slash);
    return !p.empty() && p.size() <= 253 && std::regex_match(p, prefix);
}

} // namespace gantry::studio
