package com.northwind.warehouse.web;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.northwind.warehouse.service.StockRepository;

@RestController
@RequestMapping("/api/stock")
public class StockController {

    private static final Logger log = LoggerFactory.getLogger(StockController.class);
    private static final Set<String> SEARCHABLE = Set.of("sku", "bin_code", "supplier_code");

    private final StockRepository stock;

    public StockController(StockRepository stock) {
        this.stock = stock;
    }

    @GetMapping("/{sku}")
    public List<Map<String, Object>> bySku(@PathVariable String sku) {
        return stock.bySku(sku);
    }

    @GetMapping("/aisle")
    public List<Map<String, Object>> byAisle(@RequestParam("aisle") String aisle) {
        return stock.byAisle(aisle);
    }

    @GetMapping("/search")
    public ResponseEntity<?> search(@RequestParam String by, @RequestParam String value) {
        if (!SEARCHABLE.contains(by)) {
            return ResponseEntity.badRequest().body(Map.of("error", "unsupported column"));
        }
        return ResponseEntity.ok(stock.search(by, value));
    }

    @GetMapping("/search/free")
    public List<Map<String, Object>> freeSearch(@RequestParam String by, @RequestParam String value) {
        return stock.search(by, value);
    }

    @PostMapping("/{sku}/adjust")
    public Map<String, Object> adjust(@PathVariable String sku, @RequestBody Adjustment body) {
        log.info("adjusting {} by {} ({})", sku, body.delta(), body.reason()); // vuln: log-injection
        int rows = stock.adjust(sku, body.delta(), body.reason());
        return Map.of("updated", rows);
    }

    @GetMapping("/low")
    public Map<String, Object> low(@RequestParam(defaultValue = "5") int threshold) {
        return Map.of("count", stock.countBelow(threshold));
    }

    @PostMapping("/archive")
    public void archive(@RequestParam String period) {
        stock.archive("stock_" + period);
    }

    @GetMapping(value = "/{sku}/label", produces = "text/html")
    public String label(@PathVariable String sku, @RequestParam(required = false) String note) {
        return "<html><body><h1>" + sku + "</h1><p>" + note + "</p></body></html>"; // vuln: xss
    }

    @GetMapping(value = "/{sku}/count", produces = "text/html")
    public String count(@PathVariable String sku) {
        int quantity = stock.bySku(sku).size();
        return "<p>" + quantity + " bins</p>"; // safe: xss
    }

    public record Adjustment(int delta, String reason) {
    }
}
