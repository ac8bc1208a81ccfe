package localdynamo.sdk;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Plain Java values for comparing what was written with what came back: sets become
 * Java sets (DynamoDB keeps no order in them), everything else stays exact — numbers
 * as their digit strings, binaries as their bytes.
 */
public final class AttributeValues {
    private AttributeValues() {
    }

    public static Object plain(AttributeValue v) {
        switch (v.type()) {
            case S: return "S:" + v.s();
            case N: return "N:" + v.n();
            case B: return v.b();
            case BOOL: return v.bool();
            case NUL: return "NULL";
            case SS: return new HashSet<>(v.ss());
            case NS: return v.ns().stream().map(n -> "N:" + n).collect(Collectors.toSet());
            case BS: return new HashSet<SdkBytes>(v.bs());
            case L: return v.l().stream().map(AttributeValues::plain).collect(Collectors.toList());
            case M: return plain(v.m());
            default: throw new IllegalArgumentException("a type this SDK does not know: " + v);
        }
    }

    public static Map<String, Object> plain(Map<String, AttributeValue> item) {
        Map<String, Object> out = new LinkedHashMap<>();
        item.forEach((name, value) -> out.put(name, plain(value)));
        return out;
    }

    public static AttributeValue s(String s) {
        return AttributeValue.fromS(s);
    }

    public static AttributeValue n(String n) {
        return AttributeValue.fromN(n);
    }

    public static AttributeValue n(long n) {
        return AttributeValue.fromN(Long.toString(n));
    }
}
