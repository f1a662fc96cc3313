"""Explain: answers to "why not?" and "what happened?" read off the rule file."""
