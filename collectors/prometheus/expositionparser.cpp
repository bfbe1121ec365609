// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "expositionparser.h"

#include <QHash>
#include <cmath>
#include <limits>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// A cursor over one line; every reader leaves `pos` after what it took.
struct Cursor
{
    QByteArrayView line;
    qsizetype pos = 0;

    bool atEnd() const { return pos >= line.size(); }
    char peek() const { return atEnd() ? '\0' : line[pos]; }
    void skipBlanks()
    {
        while (!atEnd() && isBlank(line[pos]))
            ++pos;
    }
    // A metric name (labelName: the stricter label-name rules, no ':').
    std::optional<QString> name(bool labelName = false)
    {
        const qsizetype start = pos;
        if (atEnd() || !isNameStart(line[pos]) || (labelName && line[pos] == ':'))
            return std::nullopt;
        ++pos;
        while (!atEnd() && isNameChar(line[pos]) && !(labelName && line[pos] == ':'))
            ++pos;
        return QString::fromLatin1(line.sliced(start, pos - start));
    }
    QByteArrayView token()
    {
        const qsizetype start = pos;
        while (!atEnd() && !isBlank(line[pos]))
            ++pos;
        return line.sliced(start, pos - start);
    }
};

std::optional<double> parseValue(QByteArrayView text)
{
    const QByteArray lower = text.toByteArray().toLower();
    if (lower == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    for (const char *inf : { "inf", "+inf", "infinity", "+infinity" })
        if (lower == inf)
            return std::numeric_limits<double>::infinity();
    if (lower == "-inf" || lower == "-infinity")
        return -std::numeric_limits<double>::infinity();
    bool ok = false;
    const double value = lower.toDouble(&ok);
    if (!ok)
        return std::nullopt;
    return value;
}

// Label values: \\, \" and \n; any other escaped character stands for itself.
bool parseLabels(Cursor &c, bool openMetrics, Labels *labels, QString *reason)
{
    ++c.pos; // '{'
    for (;;) {
        if (!openMetrics)
            c.skipBlanks();
        if (c.peek() == '}') {
            ++c.pos;
            return true;
        }
        const auto name = c.name(true);
        if (!name) {
            *reason = u"bad label name"_s;
            return false;
        }
        if (!openMetrics)
            c.skipBlanks();
        if (c.peek() != '=') {
            *reason = u"bad label syntax"_s;
            return false;
        }
        ++c.pos;
        if (!openMetrics)
            c.skipBlanks();
        if (c.peek() != '"') {
            *reason = u"bad label syntax"_s;
            return false;
        }
        ++c.pos;
        QByteArray value;
        bool closed = false;
        while (!c.atEnd()) {
            const char ch = c.line[c.pos++];
            if (ch == '"') {
                closed = true;
                break;
            }
            if (ch == '\\' && !c.atEnd()) {
                const char escaped = c.line[c.pos++];
                value += escaped == 'n' ? '\n' : escaped;
            } else {
                value += ch;
            }
        }
        if (!closed) {
            *reason = u"unterminated label value"_s;
            return false;
        }
        if (labels->contains(*name)) {
            *reason = u"duplicate label"_s;
            return false;
        }
        labels->insert(*name, QString::fromUtf8(value));
        if (!openMetrics)
            c.skipBlanks();
        if (c.peek() == ',') {
            ++c.pos;
            if (openMetrics && c.peek() == '}') { // OpenMetrics has no trailing comma
                *reason = u"bad label syntax"_s;
                return false;
            }
            continue;
        }
        if (c.peek() != '}') {
            *reason = u"bad label syntax"_s;
            return false;
        }
    }
}

std::optional<MetricType> typeFromName(QByteArrayView text, bool openMetrics)
{
    static const QHash<QByteArray, MetricType> common {
        { "counter", MetricType::Counter },
        { "gauge", MetricType::Gauge },
        { "histogram", MetricType::Histogram },
        { "summary", MetricType::Summary },
    };
    if (const auto it = common.constFind(text.toByteArray()); it != common.cend())
        return *it;
    if (!openMetrics)
        return text == "untyped" ? std::optional(MetricType::Untyped) : std::nullopt;
    if (text == "unknown")
        return MetricType::Untyped;
    if (text == "gaugehistogram")
        return MetricType::GaugeHistogram;
    if (text == "stateset")
        return MetricType::StateSet;
    if (text == "info")
        return MetricType::Info;
    return std::nullopt;
}

// The suffixes a family of this type may give its samples.
QList<QLatin1StringView> suffixesOf(MetricType type)
{
    switch (type) {
    case MetricType::Counter:
        return { "_total"_L1, "_created"_L1 };
    case MetricType::Histogram:
        return { "_bucket"_L1, "_sum"_L1, "_count"_L1, "_created"_L1 };
    case MetricType::Summary:
        return { "_sum"_L1, "_count"_L1, "_created"_L1 };
    case MetricType::GaugeHistogram:
        return { "_bucket"_L1, "_gsum"_L1, "_gcount"_L1 };
    case MetricType::Info:
        return { "_info"_L1 };
    case MetricType::Untyped:
    case MetricType::Gauge:
    case MetricType::StateSet:
        break;
    }
    return {};
}

class Parser
{
public:
    Parser(ExpositionFormat format)
        : m_openMetrics(format == ExpositionFormat::OpenMetrics)
    {
    }

    Exposition run(QByteArrayView text)
    {
        bool sawEof = false;
        int lineNumber = 0;
        qsizetype start = 0;
        while (start < text.size()) {
            qsizetype end = text.indexOf('\n', start);
            if (end < 0)
                end = text.size();
            QByteArrayView line = text.sliced(start, end - start);
            start = end + 1;
            ++lineNumber;
            if (line.endsWith('\r'))
                line.chop(1);
            if (sawEof) {
                if (!line.trimmed().isEmpty())
                    skip(lineNumber, u"text after # EOF"_s);
                continue;
            }
            if (line.size() > Exposition::MaxLineBytes) {
                skip(lineNumber, u"line too long"_s);
                continue;
            }
            if (line.trimmed().isEmpty())
                continue;
            if (line.trimmed().startsWith('#')) {
                sawEof = comment(line.trimmed(), lineNumber);
                continue;
            }
            if (m_out.samples >= Exposition::MaxSamples) {
                m_out.truncated = true;
                skip(lineNumber, u"too many samples"_s);
                break;
            }
            sample(line, lineNumber);
        }
        if (m_openMetrics && !sawEof)
            m_out.truncated = true;
        return std::move(m_out);
    }

private:
    void skip(int line, const QString &reason)
    {
        ++m_out.skippedLines;
        ++m_out.skippedByReason[reason];
        if (m_out.firstProblem.isEmpty())
            m_out.firstProblem = u"line %1: %2"_s.arg(line).arg(reason);
    }

    // nullptr for a new family past MaxFamilies: its line is skipped (the reason names
    // the cap), since HELP and TYPE lines alone could otherwise make millions of them.
    ExpositionFamily *family(const QString &name, int lineNumber)
    {
        if (const auto it = m_families.constFind(name); it != m_families.cend())
            return &m_out.families[*it];
        if (m_out.families.size() >= Exposition::MaxFamilies) {
            static const QString reason
                = u"too many metric families (cap %1)"_s.arg(Exposition::MaxFamilies);
            skip(lineNumber, reason);
            return nullptr;
        }
        m_families.insert(name, m_out.families.size());
        m_out.families.append(ExpositionFamily { name, MetricType::Untyped, {}, {}, {} });
        return &m_out.families.last();
    }

    // Returns whether the line is "# EOF".
    bool comment(QByteArrayView line, int lineNumber)
    {
        Cursor c { line, 1 };
        c.skipBlanks();
        const QByteArrayView keyword = c.token();
        if (keyword == "EOF" && m_openMetrics)
            return true;
        const bool descriptor
            = keyword == "HELP" || keyword == "TYPE" || (keyword == "UNIT" && m_openMetrics);
        if (!descriptor) {
            if (m_openMetrics)
                skip(lineNumber, u"comment (OpenMetrics allows only HELP, TYPE, UNIT, EOF)"_s);
            return false; // a comment in 0.0.4
        }
        c.skipBlanks();
        const auto name = c.name();
        if (!name || (!c.atEnd() && !isBlank(c.peek()))) {
            skip(lineNumber, u"bad metric name"_s);
            return false;
        }
        c.skipBlanks();
        const QByteArrayView rest = line.sliced(c.pos);
        if (keyword == "TYPE") {
            const auto type = typeFromName(rest.trimmed(), m_openMetrics);
            if (!type) {
                skip(lineNumber, u"unknown metric type"_s);
                return false;
            }
            if (ExpositionFamily *f = family(*name, lineNumber))
                f->type = *type;
        } else if (keyword == "HELP") {
            QByteArray help;
            for (qsizetype i = 0; i < rest.size(); ++i) {
                if (rest[i] == '\\' && i + 1 < rest.size()) {
                    ++i;
                    help += rest[i] == 'n' ? '\n' : rest[i];
                } else {
                    help += rest[i];
                }
            }
            if (ExpositionFamily *f = family(*name, lineNumber))
                f->help = QString::fromUtf8(help);
        } else if (ExpositionFamily *f = family(*name, lineNumber)) {
            f->unit = QString::fromUtf8(rest.trimmed());
        }
        return false;
    }

    // The family a sample name belongs to: its own, or the declared family whose type
    // gives it this suffix.
    ExpositionFamily *familyOfSample(const QString &name, int lineNumber)
    {
        if (const auto it = m_families.constFind(name); it != m_families.cend())
            return &m_out.families[*it];
        for (qsizetype cut = name.lastIndexOf(u'_'); cut > 0; cut = -1) {
            const QString base = name.left(cut);
            const auto it = m_families.constFind(base);
            if (it == m_families.cend())
                break;
            ExpositionFamily &f = m_out.families[*it];
            if (suffixesOf(f.type).contains(QStringView(name).mid(cut)))
                return &f;
        }
        return family(name, lineNumber);
    }

    void sample(QByteArrayView line, int lineNumber)
    {
        Cursor c { line, 0 };
        if (!m_openMetrics)
            c.skipBlanks();
        const auto name = c.name();
        if (!name) {
            skip(lineNumber, u"bad metric name"_s);
            return;
        }
        ExpositionSample s;
        s.name = *name;
        if (c.peek() == '{') {
            QString reason;
            if (!parseLabels(c, m_openMetrics, &s.labels, &reason)) {
                skip(lineNumber, reason);
                return;
            }
        }
        if (c.atEnd() || !isBlank(c.peek())) {
            skip(lineNumber, c.atEnd() ? u"no value"_s : u"bad metric name"_s);
            return;
        }
        c.skipBlanks();
        const auto value = parseValue(c.token());
        if (!value) {
            skip(lineNumber, u"value is not a number"_s);
            return;
        }
        s.value = *value;
        c.skipBlanks();
        if (!c.atEnd() && c.peek() != '#') {
            const QByteArrayView stamp = c.token();
            bool ok = false;
            if (m_openMetrics) {
                const double seconds = stamp.toByteArray().toDouble(&ok);
                ok = ok && std::isfinite(seconds) && std::abs(seconds) < 1e15;
                if (ok)
                    s.timestampMs = qint64(std::llround(seconds * 1000));
            } else {
                s.timestampMs = stamp.toByteArray().toLongLong(&ok);
            }
            if (!ok) {
                skip(lineNumber, u"bad timestamp"_s);
                return;
            }
            c.skipBlanks();
        }
        // OpenMetrics exemplars (" # {...} value") are read past, not kept.
        if (!c.atEnd() && !(m_openMetrics && c.peek() == '#')) {
            skip(lineNumber, u"unexpected text after the value"_s);
            return;
        }
        ExpositionFamily *f = familyOfSample(s.name, lineNumber);
        if (!f)
            return;
        f->samples.append(std::move(s));
        ++m_out.samples;
    }

    const bool m_openMetrics;
    Exposition m_out;
    QHash<QString, qsizetype> m_families; // name -> index in m_out.families
};

} // namespace

ExpositionFormat expositionFormatFromContentType(QByteArrayView contentType)
{
    const QByteArray media = contentType.toByteArray().split(';').value(0).trimmed().toLower();
    return media == "application/openmetrics-text" ? ExpositionFormat::OpenMetrics
                                                   : ExpositionFormat::Text004;
}

QString Exposition::summary() const
{
    if (skippedLines == 0)
        return {};
    QStringList parts;
    for (auto it = skippedByReason.cbegin(); it != skippedByReason.cend(); ++it)
        parts << u"%1 %2"_s.arg(it.value()).arg(it.key());
    return u"%1 line(s) skipped (%2; first: %3)"_s.arg(skippedLines)
        .arg(parts.join(u", "_s), firstProblem);
}

Exposition parseExposition(QByteArrayView text, ExpositionFormat format)
{
    return Parser(format).run(text);
}

} // namespace Headroom
