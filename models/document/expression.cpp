// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/expression.h"

#include <QScopeGuard>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

struct Expression::Node
{
    enum class Kind
    {
        Number,
        Metric,
        Negate,
        Add,
        Subtract,
        Multiply,
        Divide
    };
    Kind kind = Kind::Number;
    double number = 0;
    QString metric;
    std::shared_ptr<const Node> left, right;
};

namespace {
using Node = Expression::Node;
using NodePtr = std::shared_ptr<const Node>;

class Parser
{
public:
    explicit Parser(const QString &text)
        : m_text(text)
    {
    }

    NodePtr parseAll(QStringList *metrics)
    {
        m_metrics = metrics;
        if (m_text.size() > Expression::MaximumLength) {
            m_error = u"longer than %1 characters (%2)"_s.arg(Expression::MaximumLength)
                          .arg(m_text.size());
            return nullptr;
        }
        NodePtr root = expr();
        skipSpace();
        if (root && m_pos < m_text.size())
            fail(u"unexpected \"%1\""_s.arg(m_text.at(m_pos)));
        return m_error.isEmpty() ? root : nullptr;
    }
    QString error() const { return m_error; }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size() && m_text.at(m_pos).isSpace())
            ++m_pos;
    }
    void fail(const QString &what)
    {
        if (m_error.isEmpty())
            m_error = u"position %1: %2"_s.arg(m_pos + 1).arg(what);
    }
    static NodePtr binary(Node::Kind kind, NodePtr a, NodePtr b)
    {
        auto n = std::make_shared<Node>();
        n->kind = kind;
        n->left = std::move(a);
        n->right = std::move(b);
        return n;
    }

    NodePtr expr()
    {
        NodePtr left = term();
        while (left) {
            skipSpace();
            if (m_pos >= m_text.size() || (m_text.at(m_pos) != u'+' && m_text.at(m_pos) != u'-'))
                break;
            const auto kind = m_text.at(m_pos++) == u'+' ? Node::Kind::Add : Node::Kind::Subtract;
            NodePtr right = term();
            if (!right)
                return nullptr;
            left = binary(kind, left, right);
        }
        return left;
    }

    NodePtr term()
    {
        NodePtr left = factor();
        while (left) {
            skipSpace();
            if (m_pos >= m_text.size() || (m_text.at(m_pos) != u'*' && m_text.at(m_pos) != u'/'))
                break;
            const auto kind
                = m_text.at(m_pos++) == u'*' ? Node::Kind::Multiply : Node::Kind::Divide;
            NodePtr right = factor();
            if (!right)
                return nullptr;
            left = binary(kind, left, right);
        }
        return left;
    }

    // One level of '(' or unary '-': false (and the error) past MaximumDepth, before the
    // recursion that would need another stack frame.
    bool enter()
    {
        if (++m_depth <= Expression::MaximumDepth)
            return true;
        fail(u"nested deeper than %1 levels"_s.arg(Expression::MaximumDepth));
        return false;
    }

    NodePtr factor()
    {
        skipSpace();
        if (m_pos >= m_text.size()) {
            fail(u"expected a number, a metric or \"(\""_s);
            return nullptr;
        }
        const QChar c = m_text.at(m_pos);
        if (c == u'(') {
            const auto leave = qScopeGuard([this] { --m_depth; });
            if (!enter())
                return nullptr;
            ++m_pos;
            NodePtr inner = expr();
            skipSpace();
            if (!inner)
                return nullptr;
            if (m_pos >= m_text.size() || m_text.at(m_pos) != u')') {
                fail(u"expected \")\""_s);
                return nullptr;
            }
            ++m_pos;
            return inner;
        }
        if (c == u'-') {
            const auto leave = qScopeGuard([this] { --m_depth; });
            if (!enter())
                return nullptr;
            ++m_pos;
            NodePtr operand = factor();
            if (!operand)
                return nullptr;
            auto n = std::make_shared<Node>();
            n->kind = Node::Kind::Negate;
            n->left = operand;
            return n;
        }
        if (c.isDigit() || c == u'.') {
            const qsizetype start = m_pos;
            while (m_pos < m_text.size()
                   && (m_text.at(m_pos).isDigit() || m_text.at(m_pos) == u'.'
                       || m_text.at(m_pos) == u'e' || m_text.at(m_pos) == u'E'
                       || ((m_text.at(m_pos) == u'-' || m_text.at(m_pos) == u'+') && m_pos > start
                           && (m_text.at(m_pos - 1) == u'e' || m_text.at(m_pos - 1) == u'E'))))
                ++m_pos;
            bool ok = false;
            const QString literal = m_text.mid(start, m_pos - start);
            const double value = literal.toDouble(&ok);
            if (!ok) {
                m_pos = start;
                fail(u"bad number \"%1\""_s.arg(literal));
                return nullptr;
            }
            auto n = std::make_shared<Node>();
            n->number = value;
            return n;
        }
        if (c.isLetter() || c == u'_') {
            const qsizetype start = m_pos;
            while (m_pos < m_text.size()
                   && (m_text.at(m_pos).isLetterOrNumber() || m_text.at(m_pos) == u'_'
                       || m_text.at(m_pos) == u'.' || m_text.at(m_pos) == u':'))
                ++m_pos;
            auto n = std::make_shared<Node>();
            n->kind = Node::Kind::Metric;
            n->metric = m_text.mid(start, m_pos - start);
            if (!m_metrics->contains(n->metric))
                m_metrics->append(n->metric);
            return n;
        }
        fail(u"unexpected \"%1\""_s.arg(c));
        return nullptr;
    }

    const QString &m_text;
    qsizetype m_pos = 0;
    int m_depth = 0;
    QString m_error;
    QStringList *m_metrics = nullptr;
};

std::optional<double> evaluateNode(const Node &node, const Expression::Resolver &resolve)
{
    switch (node.kind) {
    case Node::Kind::Number:
        return node.number;
    case Node::Kind::Metric:
        return resolve(node.metric);
    case Node::Kind::Negate: {
        const auto v = evaluateNode(*node.left, resolve);
        return v ? std::optional<double>(-*v) : std::nullopt;
    }
    default:
        break;
    }
    const auto a = evaluateNode(*node.left, resolve);
    const auto b = evaluateNode(*node.right, resolve);
    if (!a || !b)
        return std::nullopt;
    switch (node.kind) {
    case Node::Kind::Add:
        return *a + *b;
    case Node::Kind::Subtract:
        return *a - *b;
    case Node::Kind::Multiply:
        return *a * *b;
    default:
        return *a / *b;
    }
}
} // namespace

std::optional<Expression> Expression::parse(const QString &text, QString *error)
{
    Expression e;
    e.m_text = text;
    Parser parser(text);
    e.m_root = parser.parseAll(&e.m_metrics);
    if (!e.m_root) {
        if (error)
            *error = parser.error();
        return std::nullopt;
    }
    return e;
}

std::optional<double> Expression::evaluate(const Resolver &resolve) const
{
    if (!m_root)
        return std::nullopt;
    const auto v = evaluateNode(*m_root, resolve);
    if (!v || !std::isfinite(*v))
        return std::nullopt;
    return v;
}

} // namespace Headroom
