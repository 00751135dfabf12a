"""Rolling summaries and consolidation: what to keep, what changed, and which memories belong together."""
